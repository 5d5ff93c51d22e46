// The matching queues indexed by (context, source): the hash index, the per-source lists, the
// matchable set of posted receives, and matching through them with long queues.
#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <map>
#include <random>
#include <vector>

#include "flat_index.hpp"
#include "match_queues.hpp"
#include "sim_harness.hpp"

namespace {

using mpilite::envelope_key;
using mpilite::Message;
using mpilite::Request;

TEST(FlatIndex, AgreesWithStdMapUnderRandomInsertAndErase) {
  // Keys from a small range collide and form long probe chains; erasing from their middle is
  // what backward-shift deletion must get right.
  mpilite::FlatIndex index;
  std::map<std::uint64_t, std::uint32_t> model;
  std::mt19937_64 rng(42);
  for (int step = 0; step < 20000; ++step) {
    const std::uint64_t key =
        envelope_key(static_cast<int>(rng() % 3), static_cast<int>(rng() % 300));
    if (model.count(key)) {
      ASSERT_EQ(*index.find(key), model[key]) << step;
      index.erase(key);
      model.erase(key);
    } else {
      const auto value = static_cast<std::uint32_t>(step);
      index.insert(key, value);
      model[key] = value;
    }
    ASSERT_EQ(index.size(), model.size());
  }
  for (int c = 0; c < 3; ++c)
    for (int s = 0; s < 300; ++s) {
      const std::uint64_t key = envelope_key(c, s);
      const std::uint32_t* found = index.find(key);
      ASSERT_EQ(found != nullptr, model.count(key) == 1) << c << "," << s;
      if (found) {
        EXPECT_EQ(*found, model[key]);
      }
    }
}

TEST(FlatIndex, GrowsFromTwoSlots) {
  // Each rank has two of these: a rank that hears from one source pays two slots, not 16.
  mpilite::FlatIndex index;
  EXPECT_EQ(index.capacity(), 0u);
  EXPECT_EQ(index.find(envelope_key(0, 0)), nullptr);
  index.insert(envelope_key(0, 7), 70);
  EXPECT_EQ(index.capacity(), 2u);
  EXPECT_EQ(index.find(envelope_key(0, 8)), nullptr); // a miss ends at the free slot
  index.insert(envelope_key(0, 8), 80);
  index.insert(envelope_key(1, 7), 71);
  EXPECT_EQ(index.capacity(), 8u);
  index.erase(envelope_key(0, 7));
  EXPECT_EQ(index.find(envelope_key(0, 7)), nullptr);
  EXPECT_EQ(*index.find(envelope_key(0, 8)), 80u);
  EXPECT_EQ(*index.find(envelope_key(1, 7)), 71u);
}

TEST(FlatIndex, KeyOfAnySourceDiffersFromEveryRank) {
  EXPECT_NE(envelope_key(1, MPI_ANY_SOURCE), envelope_key(1, 0));
  EXPECT_NE(envelope_key(1, 5), envelope_key(2, 5));
  EXPECT_EQ(mpilite::context_of_key(envelope_key(7, MPI_ANY_SOURCE)), 7);
}

Message make_message(int context, int src, int tag, std::uint64_t seq) {
  Message m;
  m.context = context;
  m.src = src;
  m.tag = tag;
  m.seq = seq;
  return m;
}

std::vector<std::uint64_t> seqs_from(const mpilite::UnexpectedQueue& q, int context, int src) {
  std::vector<std::uint64_t> out;
  for (const Message* m = q.first_from(context, src); m; m = m->source_next)
    out.push_back(m->seq);
  return out;
}

TEST(UnexpectedQueue, KeepsArrivalOrderOverallAndPerSource) {
  std::deque<Message> msgs;
  mpilite::UnexpectedQueue q;
  // Sources 1 and 2 on context 0, source 1 on context 4, interleaved.
  const int plan[][2] = {{0, 1}, {0, 2}, {4, 1}, {0, 1}, {0, 2}, {0, 1}};
  for (std::uint64_t i = 0; i < 6; ++i) {
    msgs.push_back(make_message(plan[i][0], plan[i][1], 0, i));
    q.push_back(&msgs.back());
  }
  EXPECT_EQ(seqs_from(q, 0, 1), (std::vector<std::uint64_t>{0, 3, 5}));
  EXPECT_EQ(seqs_from(q, 0, 2), (std::vector<std::uint64_t>{1, 4}));
  EXPECT_EQ(seqs_from(q, 4, 1), (std::vector<std::uint64_t>{2}));
  EXPECT_EQ(q.sources().size(), 3u);

  q.erase(&msgs[3]); // middle of (0, 1)
  q.erase(&msgs[2]); // the only one of (4, 1): its list goes
  EXPECT_EQ(seqs_from(q, 0, 1), (std::vector<std::uint64_t>{0, 5}));
  EXPECT_EQ(seqs_from(q, 4, 1), (std::vector<std::uint64_t>{}));
  EXPECT_EQ(q.sources().size(), 2u);
  std::vector<std::uint64_t> all;
  for (const Message* m = q.front(); m; m = m->next)
    all.push_back(m->seq);
  EXPECT_EQ(all, (std::vector<std::uint64_t>{0, 1, 4, 5}));

  for (std::size_t i : {0u, 1u, 4u, 5u})
    q.erase(&msgs[i]);
  EXPECT_TRUE(q.empty());
  EXPECT_TRUE(q.sources().empty());
}

TEST(FlatIndex, ClearKeepsTheSlotsAndForgetsEveryKey) {
  mpilite::FlatIndex index;
  for (int s = 0; s < 5; ++s)
    index.insert(envelope_key(0, s), static_cast<std::uint32_t>(s));
  const std::size_t slots = index.capacity();
  index.clear();
  EXPECT_EQ(index.size(), 0u);
  EXPECT_EQ(index.capacity(), slots);
  for (int s = 0; s < 5; ++s)
    EXPECT_EQ(index.find(envelope_key(0, s)), nullptr) << s;
  index.insert(envelope_key(0, 3), 33);
  EXPECT_EQ(*index.find(envelope_key(0, 3)), 33u);
}

TEST(UnexpectedQueue, PerSourceOrderHoldsWhileTheListCountCrossesTheIndexLimit) {
  // Up to 2 * kSources lists at once, down to none and back: the lists are scanned while there
  // are few and indexed while there are many, and every switch between the two must keep each
  // list's order and find every list again.
  constexpr int kSources = static_cast<int>(mpilite::kScannedLists) * 5 / 4;
  int rises = 0, falls = 0;
  bool many = false;
  std::deque<Message> msgs;
  mpilite::UnexpectedQueue q;
  std::map<std::uint64_t, std::deque<Message*>> model;
  std::mt19937_64 rng(7);
  std::uint64_t seq = 0;
  for (int step = 0; step < 40000; ++step) {
    // Phases of 100 steps that grow by about 50 messages and then shrink by about 75: the list
    // count rises past the limit and falls to half of it or below in many pairs of phases
    // (counted below).
    const bool grow = (step / 100) % 2 == 0;
    if (model.empty() || rng() % 8 < (grow ? 6u : 1u)) {
      const int context = static_cast<int>(rng() % 2);
      const int src = static_cast<int>(rng() % kSources);
      msgs.push_back(make_message(context, src, 0, seq++));
      q.push_back(&msgs.back());
      model[envelope_key(context, src)].push_back(&msgs.back());
    } else {
      auto it = model.begin();
      std::advance(it, static_cast<long>(rng() % model.size()));
      auto& list = it->second;
      const std::size_t at = rng() % list.size();
      q.erase(list[at]);
      list.erase(list.begin() + static_cast<long>(at));
      if (list.empty()) model.erase(it);
    }
    ASSERT_EQ(q.sources().size(), model.size()) << step;
    if (!many && model.size() > mpilite::kScannedLists) many = true, ++rises;
    if (many && model.size() <= mpilite::kScannedLists / 2) many = false, ++falls;
    if (step % 97 != 0) continue;
    for (int context = 0; context < 2; ++context)
      for (int src = 0; src < kSources; ++src) {
        std::vector<std::uint64_t> want;
        if (auto it = model.find(envelope_key(context, src)); it != model.end())
          for (const Message* m : it->second)
            want.push_back(m->seq);
        ASSERT_EQ(seqs_from(q, context, src), want) << step << ": " << context << "," << src;
      }
  }
  EXPECT_GT(rises, 20);
  EXPECT_GT(falls, 20);
}

TEST(UnexpectedQueue, GivesBackTheBlockOfManySourcesOnceEmptyAndKeepsThatOfAFew) {
  // A late rank of a recursive-doubling allreduce hears from log2 p partners; once it has
  // received from all of them, its queue must not keep their lists' block for the rest of the
  // run. A rank trading with a few neighbours keeps its small block instead of allocating it
  // again at every exchange.
  std::deque<Message> msgs;
  mpilite::UnexpectedQueue q;
  for (int src = 0; src < 17; ++src) {
    msgs.push_back(make_message(0, src, 0, static_cast<std::uint64_t>(src)));
    q.push_back(&msgs.back());
  }
  EXPECT_GE(q.sources().capacity(), 17u);
  for (Message& m : msgs)
    q.erase(&m);
  EXPECT_EQ(q.sources().capacity(), 1u); // the list inline in the queue
  msgs.clear();
  for (int src = 0; src < 3; ++src) {
    msgs.push_back(make_message(0, src, 0, static_cast<std::uint64_t>(src)));
    q.push_back(&msgs.back());
  }
  const std::size_t few = q.sources().capacity();
  ASSERT_LE(few, 4u);
  for (Message& m : msgs)
    q.erase(&m);
  EXPECT_EQ(q.sources().capacity(), few);
  msgs.push_back(make_message(0, 9, 0, 99));
  q.push_back(&msgs.back());
  EXPECT_EQ(seqs_from(q, 0, 9), std::vector<std::uint64_t>{99});
}

Request make_receive(int context, int source, int tag) {
  Request q;
  q.kind = mpilite::RequestKind::Recv;
  q.context = context;
  q.source = source;
  q.tag = tag;
  return q;
}

std::vector<Request*> matchable(const mpilite::PostedQueue& p) {
  std::vector<Request*> out;
  for (std::size_t i = 0; i < p.matchable_count(); ++i)
    out.push_back(p.matchable(i));
  return out;
}

TEST(PostedQueue, WakesExactlyTheReceivesAMessageMatchesInPostOrder) {
  std::deque<Request> reqs;
  reqs.push_back(make_receive(0, 3, 7));                        // 0: named, matches
  reqs.push_back(make_receive(0, 3, 8));                        // 1: other tag
  reqs.push_back(make_receive(0, MPI_ANY_SOURCE, MPI_ANY_TAG)); // 2: wildcard, matches
  reqs.push_back(make_receive(0, 4, 7));                        // 3: other source
  reqs.push_back(make_receive(1, 3, 7));                        // 4: other context
  reqs.push_back(make_receive(0, 3, MPI_ANY_TAG));              // 5: any tag, matches
  mpilite::PostedQueue p;
  for (Request& q : reqs)
    p.push_back(&q);
  std::vector<Request*> order(p.begin(), p.end());
  ASSERT_EQ(order.size(), 6u);
  for (std::size_t i = 0; i < 6; ++i)
    EXPECT_EQ(order[i], &reqs[i]);

  // A new receive is matchable (it may have a message already); matching drops those without.
  EXPECT_EQ(matchable(p).size(), 6u);
  while (p.matchable_count() > 0)
    p.drop_matchable(0);

  const Message m = make_message(0, 3, 7, 0);
  p.wake_receivers(m);
  EXPECT_EQ(matchable(p), (std::vector<Request*>{&reqs[0], &reqs[2], &reqs[5]}));
  p.wake_receivers(m); // already matchable: no duplicates
  EXPECT_EQ(matchable(p).size(), 3u);

  p.erase(&reqs[2]); // leaves both orders
  EXPECT_EQ(matchable(p), (std::vector<Request*>{&reqs[0], &reqs[5]}));
  p.wake_receivers(make_message(0, 4, 7, 1));
  EXPECT_EQ(matchable(p), (std::vector<Request*>{&reqs[0], &reqs[3], &reqs[5]}));
  order.assign(p.begin(), p.end());
  EXPECT_EQ(order, (std::vector<Request*>{&reqs[0], &reqs[1], &reqs[3], &reqs[4], &reqs[5]}));
  for (Request* q : order)
    p.erase(q);
  EXPECT_TRUE(p.empty());
  EXPECT_EQ(p.matchable_count(), 0u);
}

// Matching drops a receive by itself (the receives of one source, visited in their own list), and
// the rest keep post order, over enough receives that the set is searched, not scanned.
TEST(PostedQueue, DropsAReceiveByItselfAndKeepsPostOrder) {
  std::deque<Request> reqs;
  for (int s = 0; s < 100; ++s)
    reqs.push_back(make_receive(0, s, 7));
  mpilite::PostedQueue p;
  for (Request& q : reqs)
    p.push_back(&q);
  std::vector<Request*> kept;
  for (int s = 0; s < 100; ++s) {
    if (s % 3 == 0)
      p.drop_from_matchable(&reqs[static_cast<std::size_t>(s)]);
    else
      kept.push_back(&reqs[static_cast<std::size_t>(s)]);
  }
  EXPECT_EQ(matchable(p), kept);
  EXPECT_FALSE(reqs[0].matchable);
  p.erase(&reqs[50]); // matchable: leaves the set too
  kept.erase(std::find(kept.begin(), kept.end(), &reqs[50]));
  EXPECT_EQ(matchable(p), kept);
  p.wake_receivers(make_message(0, 99, 7, 0)); // 99 % 3 == 0: back, in its place (last)
  kept.push_back(&reqs[99]);
  EXPECT_EQ(matchable(p), kept);
  p.wake_receivers(make_message(0, 3, 7, 1)); // back between 2 and 4
  kept.insert(std::find(kept.begin(), kept.end(), &reqs[4]), &reqs[3]);
  EXPECT_EQ(matchable(p), kept);
}

// Every rank sends `kPerPeer` tagged messages to rank 0, which has them all queued before it
// posts receives in an order unrelated to arrival: by source descending, tags descending within
// a source, then wildcards for the rest. Named receives take each source's first message of
// their tag; wildcards the earliest (ts, source, seq) of what is left.
TEST(MatchingQueues, LongQueuesMatchByMpiRules) {
  constexpr int kRanks = 33;
  constexpr int kPerPeer = 4;
  std::vector<int> named_values, wild_sources, wild_values;
  auto r = test::simulate(test::config(kRanks), [&](int, char**) {
    MPI_Init(nullptr, nullptr);
    const int me = test::world_rank();
    if (me != 0) {
      // Later ranks send earlier in simulated time; tags 0, 1, 0, 1 so that tag 0 has two
      // messages per source and non-overtaking decides which a receive gets.
      MPISIM_Compute((kRanks - me) * 1e-6);
      for (int i = 0; i < kPerPeer; ++i) {
        const int v = me * 100 + i;
        MPI_Send(&v, 1, MPI_INT, 0, i % 2, MPI_COMM_WORLD);
      }
    } else {
      MPISIM_Compute(1e-3); // everything has arrived
      for (int src = kRanks - 1; src >= 1; src -= 2) {
        int v = -1;
        MPI_Recv(&v, 1, MPI_INT, src, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        named_values.push_back(v);
        MPI_Recv(&v, 1, MPI_INT, src, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        named_values.push_back(v);
      }
      const int left = (kRanks - 1) * kPerPeer - static_cast<int>(named_values.size());
      for (int i = 0; i < left; ++i) {
        int v = -1;
        MPI_Status st;
        MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
        wild_sources.push_back(st.MPI_SOURCE);
        wild_values.push_back(v);
      }
    }
    MPI_Finalize();
    return 0;
  });
  ASSERT_EQ(r.reason, mpilite::RunEnd::Finished);
  std::vector<int> want_named;
  for (int src = kRanks - 1; src >= 1; src -= 2) {
    want_named.push_back(src * 100 + 1); // first tag-1 message
    want_named.push_back(src * 100 + 0); // first tag-0 message
  }
  EXPECT_EQ(named_values, want_named);
  // The wildcards: the highest source sent first in simulated time; its remaining messages
  // arrive in send order before the next source's.
  std::vector<int> want_sources, want_values;
  for (int src = kRanks - 1; src >= 1; --src) {
    const bool named = (kRanks - 1 - src) % 2 == 0;
    for (int i = named ? 2 : 0; i < kPerPeer; ++i) {
      want_sources.push_back(src);
      want_values.push_back(src * 100 + i);
    }
  }
  EXPECT_EQ(wild_sources, want_sources);
  EXPECT_EQ(wild_values, want_values);
}

} // namespace
