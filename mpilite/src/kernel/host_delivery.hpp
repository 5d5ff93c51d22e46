// Delivery of messages and replies to ranks of other host processes.
#pragma once

namespace mpilite {

struct Message;
struct Reply;
struct Transfer;

class HostDelivery {
public:
  virtual ~HostDelivery() = default;
  /// Hands a message for a rank of another host process to the transport (which takes it).
  virtual void send_remote(Message* m) = 0;
  /// Hands the reply to a synchronous or rendezvous send of another host process to the transport.
  virtual void reply_remote(const Reply& reply) = 0;
  /// Hands a rendezvous's clear-to-send, or its data, for another host process to the transport
  /// (under a network that plans the data at its sender's host: MessageTiming::data_at_sender).
  virtual void transfer_remote(const Transfer& t) = 0;
  /// Whether poll() has anything to do (work may arrive from other host processes).
  virtual bool polls() const { return false; }
  /// Takes in what other host processes sent, while ranks of this host keep running.
  virtual void poll() {}
};

} // namespace mpilite
