/*
 * The MPI functions of mpisim, one MPISIM_DECLARE(return type, name without MPI_, parameters) per
 * function. Included by mpi.h (to declare them) and by the library (to check the list against
 * the implementation); do not include it directly.
 */
/* Environment */
MPISIM_DECLARE(int, Init, (int* argc, char*** argv))
MPISIM_DECLARE(int, Init_thread, (int* argc, char*** argv, int required, int* provided))
MPISIM_DECLARE(int, Finalize, (void))
MPISIM_DECLARE(int, Initialized, (int* flag))
MPISIM_DECLARE(int, Finalized, (int* flag))
MPISIM_DECLARE(int, Abort, (MPI_Comm comm, int errorcode))
MPISIM_DECLARE(double, Wtime, (void))
MPISIM_DECLARE(double, Wtick, (void))
MPISIM_DECLARE(int, Get_processor_name, (char* name, int* resultlen))
MPISIM_DECLARE(int, Get_version, (int* version, int* subversion))
MPISIM_DECLARE(int, Error_string, (int errorcode, char* string, int* resultlen))
MPISIM_DECLARE(int, Error_class, (int errorcode, int* errorclass))
MPISIM_DECLARE(int, Comm_set_errhandler, (MPI_Comm comm, MPI_Errhandler errhandler))
MPISIM_DECLARE(int, Comm_get_errhandler, (MPI_Comm comm, MPI_Errhandler* errhandler))
/* Communicators */
MPISIM_DECLARE(int, Comm_rank, (MPI_Comm comm, int* rank))
MPISIM_DECLARE(int, Comm_size, (MPI_Comm comm, int* size))
/* Point-to-point */
MPISIM_DECLARE(int, Send, (const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm))
MPISIM_DECLARE(int, Bsend, (const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm))
MPISIM_DECLARE(int, Ssend, (const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm))
MPISIM_DECLARE(int, Rsend, (const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm))
MPISIM_DECLARE(int, Isend, (const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request* request))
MPISIM_DECLARE(int, Ibsend, (const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request* request))
MPISIM_DECLARE(int, Issend, (const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request* request))
MPISIM_DECLARE(int, Irsend, (const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request* request))
MPISIM_DECLARE(int, Recv, (void* buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Status* status))
MPISIM_DECLARE(int, Irecv, (void* buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Request* request))
MPISIM_DECLARE(int, Sendrecv, (const void* sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag, void* recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, MPI_Status* status))
MPISIM_DECLARE(int, Wait, (MPI_Request* request, MPI_Status* status))
MPISIM_DECLARE(int, Waitall, (int count, MPI_Request array_of_requests[], MPI_Status array_of_statuses[]))
MPISIM_DECLARE(int, Test, (MPI_Request* request, int* flag, MPI_Status* status))
MPISIM_DECLARE(int, Testall, (int count, MPI_Request array_of_requests[], int* flag, MPI_Status array_of_statuses[]))
MPISIM_DECLARE(int, Get_count, (const MPI_Status* status, MPI_Datatype datatype, int* count))
MPISIM_DECLARE(int, Buffer_attach, (void* buffer, int size))
MPISIM_DECLARE(int, Buffer_detach, (void* buffer_addr, int* size))
/* Datatypes */
MPISIM_DECLARE(int, Type_contiguous, (int count, MPI_Datatype oldtype, MPI_Datatype* newtype))
MPISIM_DECLARE(int, Type_commit, (MPI_Datatype* datatype))
MPISIM_DECLARE(int, Type_free, (MPI_Datatype* datatype))
MPISIM_DECLARE(int, Type_size, (MPI_Datatype datatype, int* size))
MPISIM_DECLARE(int, Type_get_extent, (MPI_Datatype datatype, MPI_Aint* lb, MPI_Aint* extent))
/* Collectives */
MPISIM_DECLARE(int, Barrier, (MPI_Comm comm))
MPISIM_DECLARE(int, Bcast, (void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm))
MPISIM_DECLARE(int, Reduce, (const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm))
MPISIM_DECLARE(int, Allreduce, (const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm))
