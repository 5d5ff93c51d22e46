// Transport between host processes over MPICH (multi-host simulation lands with the protocol
// work; a one-host simulation never calls it).
