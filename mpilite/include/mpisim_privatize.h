/* The privatization ABI: what code rewritten by mpisim-privatize uses to give every simulated
 * rank its own copy of the program's globals, file statics and function statics.
 *
 * Each privatized variable lives in a per-rank segment. The translation unit that defines it
 * registers an mpisim_priv_var before main (a C constructor or a C++ static initializer); the
 * runtime lays the variables out once, before ranks start, writes each one's offset into
 * *offset, and gives every rank a segment holding each variable's initial image (zeros when
 * there is none) followed by its init function. A use of the variable becomes
 * MPISIM_PRIV(proto, offset): an lvalue at the current rank's segment base plus the offset.
 * The scheduler sets mpisim_priv_base on every fiber switch.
 *
 * This header is included by rewritten sources only; user code never names it. */
#ifndef MPISIM_PRIVATIZE_H
#define MPISIM_PRIVATIZE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The variables one unit defines for itself, laid out by the privatizer at fixed offsets
 *  from one base: uses inside the unit then differ by constants, which lets the compiler
 *  tell them apart (vectorize, keep values in registers) as it does for plain globals. */
typedef struct mpisim_priv_group {
  size_t size;
  size_t align;
  /** Written by the runtime: the group's offset in the segment. */
  size_t offset;
} mpisim_priv_group;

/** Registration record of one privatized variable (static storage in the defining unit). */
typedef struct mpisim_priv_var {
  /** Link-level identity for variables with external linkage (records of the same name from
   *  several units, such as C tentative definitions or C++ inline variables, share one slot);
   *  NULL for variables with internal linkage. */
  const char* name;
  /** "file:line" of the declaration, for diagnostics. */
  const char* where;
  size_t size;
  size_t align;
  /** Initial bytes (size of them), or NULL for zeros. */
  const void* image;
  /** Runs in the rank, after the image copy, with the rank's segment current: re-evaluates
   *  initializers that are not plain bytes (addresses of other privatized variables, C++
   *  constructors). NULL when the image is the whole initial value. */
  void (*init)(void* object);
  /** Runs when the rank ends, in reverse order of init (C++ destructors). May be NULL. */
  void (*fini)(void* object);
  /** Where the runtime writes the variable's offset in the segment. */
  size_t* offset;
  /** MPISIM_PRIV_* flags. */
  int flags;
  /** The unit's group the variable belongs to, and its place in it; NULL for a variable
   *  with a slot of its own (mergeable ones, C++ lazily built statics). */
  mpisim_priv_group* group;
  size_t group_at;
  /** A restrict-qualified pointer of the unit that the runtime keeps pointing at the current
   *  rank's copy (large arrays: the compiler then knows that no other variable overlaps
   *  them, as it knows for plain globals); NULL for none. */
  void** cell;
} mpisim_priv_var;

/** The record comes from a definition that may appear in several units (C tentative
 *  definition, C++ inline variable or template): same-named records share one slot. */
#define MPISIM_PRIV_MERGEABLE 1
/** The variable was declared thread-local (or OpenMP threadprivate): the rank's own thread
 *  has its copy in the segment, and each other thread of the rank's OpenMP teams one of its
 *  own. Such a record has no group; its uses go through MPISIM_PRIV_T or MPISIM_PRIV_TW. */
#define MPISIM_PRIV_THREAD_LOCAL 2

/** The current rank's segment (NULL outside ranks). */
extern char* mpisim_priv_base;

/** On a thread of a rank's OpenMP team other than the rank's own: where that thread's copies
 *  of the thread-local variables are, as a base their segment offsets apply to. NULL on the
 *  rank's own thread, whose copies are in the segment. */
extern __thread char* mpisim_priv_thread_base;

/** Before a parallel region with `copyin(x)`: each thread of the team that the calling thread
 *  starts next takes the caller's value of the thread-local `x` (its address and size). */
void mpisim_priv_copyin(void* copy, size_t size);

/** A thread of a rank's OpenMP team starts (1) or ends (0) waiting for a function-local static
 *  that another thread of the team builds: it waits for the team then, so that the rank's own
 *  thread may call MPI (or sleep) meanwhile, and the wait is not work. */
void mpisim_priv_team_wait(int waiting);

/** Called before main by every unit that defines privatized variables. Returns 0. */
int mpisim_priv_register(mpisim_priv_var* var);

/** Called before main by every C++ unit that names std::cout, std::cerr or std::clog: the
 *  scheduler then keeps their format per rank, which costs every fiber switch a little, so
 *  programs that never name them do not pay. Returns 0. */
int mpisim_priv_uses_streams(void);

/** Called before main by every C++ unit with a catch handler of its own: the scheduler then
 *  keeps the C++ runtime's record of the exceptions being handled per rank (a rank may call MPI
 *  inside a catch block), which costs every fiber switch a little. Returns 0. */
int mpisim_priv_uses_exceptions(void);

#ifdef __cplusplus
}
#endif

/** The current rank's copy of a privatized variable whose prototype (a declaration of the
 *  same type, never used at run time) is `proto`. */
#define MPISIM_PRIV(proto, offset) (*(__typeof__(proto)*)(mpisim_priv_base + (offset)))

/** The same through `wrapper`, a struct whose only member `v` is the variable. */
#define MPISIM_PRIV_W(wrapper, offset) (((wrapper*)(mpisim_priv_base + (offset)))->v)

/** The calling thread's copies of the current rank's thread-local variables. */
#define MPISIM_PRIV_TBASE (mpisim_priv_thread_base ? mpisim_priv_thread_base : mpisim_priv_base)
/** MPISIM_PRIV and MPISIM_PRIV_W of a thread-local variable. */
#define MPISIM_PRIV_T(proto, offset) (*(__typeof__(proto)*)(MPISIM_PRIV_TBASE + (offset)))
#define MPISIM_PRIV_TW(wrapper, offset) (((wrapper*)(MPISIM_PRIV_TBASE + (offset)))->v)

#ifdef __cplusplus
#define MPISIM_PRIV_BEGIN_C extern "C" {
#define MPISIM_PRIV_END_C }
#else
#define MPISIM_PRIV_BEGIN_C
#define MPISIM_PRIV_END_C
#endif

#ifdef __cplusplus
#include <cstddef>
#include <new>

#include <sched.h>

/* Written for C++11 and later: rewritten programs keep the user's -std. */
namespace mpisim_priv {

/** Runs the destructor of an object or of every element of an array. */
template <class T> void destroy_object(T* p) {
  p->~T();
}
template <class T, std::size_t N> void destroy_object(T (*p)[N]) {
  for (std::size_t i = N; i > 0; --i)
    destroy_object(&(*p)[i - 1]);
}

/** Destructor callback for a registration record. */
template <class T> void destroy(void* p) {
  destroy_object(static_cast<T*>(p));
}

/** `T&`, also when T is an array or function type (accessors' return types). */
template <class T> using ref = T&;

/** States of a function-local static's copy: the threads of a rank's OpenMP team may reach
 *  its declaration together, and, as C++ requires of every static, one builds it while the
 *  others wait (a constructor that throws leaves it unbuilt for the next to try). */
enum : unsigned char { kUnbuilt = 0, kBuilding = 1, kBuilt = 2 };

/** Slot of a function-local static of C++ code, one per Tag (a class local to the function,
 *  hence one per template instantiation). Registered before main, constructed lazily per
 *  rank on the first pass through the declaration, as C++ requires. */
template <class Tag, class T> struct local_slot {
  // The object, then the byte that says whether this rank has constructed it (kBuilt).
  static constexpr std::size_t flag_at = sizeof(T);
  static std::size_t offset;
  static mpisim_priv_var record;
  static int registered;
  static void fini(void* p) {
    if (*(static_cast<unsigned char*>(p) + flag_at) == kBuilt) destroy<T>(p);
  }
};
template <class Tag, class T> std::size_t local_slot<Tag, T>::offset = 0;
template <class Tag, class T>
mpisim_priv_var local_slot<Tag, T>::record = {nullptr,
                                              nullptr,
                                              sizeof(T) + 1,
                                              alignof(T),
                                              nullptr,
                                              nullptr,
                                              &local_slot::fini,
                                              &local_slot::offset,
                                              0,
                                              nullptr,
                                              0,
                                              nullptr};
// Tag is a class local to the function: it has no static data members, only functions.
template <class Tag, class T>
int local_slot<Tag, T>::registered = (local_slot<Tag, T>::record.where = Tag::where(),
                                      mpisim_priv_register(&local_slot<Tag, T>::record));

/** The current rank's copy of a C++ function-local static; `construct(void*)` builds it in
 *  place the first time this rank passes the declaration. */
template <class Tag, class T, class Construct> T& local_static(Construct&& construct) {
  (void)&local_slot<Tag, T>::registered; // instantiates the registration
  char* p = mpisim_priv_base + local_slot<Tag, T>::offset;
  unsigned char* state = reinterpret_cast<unsigned char*>(p + local_slot<Tag, T>::flag_at);
  while (__builtin_expect(__atomic_load_n(state, __ATOMIC_ACQUIRE) != kBuilt, 0)) {
    unsigned char unbuilt = kUnbuilt;
    if (__atomic_compare_exchange_n(state, &unbuilt, kBuilding, false, __ATOMIC_ACQUIRE,
                                    __ATOMIC_RELAXED)) {
      struct Unwind { // reopens the slot if the constructor throws
        unsigned char* state;
        unsigned char done;
        ~Unwind() { __atomic_store_n(state, done, __ATOMIC_RELEASE); }
      } unwind{state, kUnbuilt};
      construct(static_cast<void*>(p));
      unwind.done = kBuilt;
    } else {
      mpisim_priv_team_wait(1); // another thread of the team builds it
      while (__atomic_load_n(state, __ATOMIC_ACQUIRE) == kBuilding)
        sched_yield();
      mpisim_priv_team_wait(0);
    }
  }
  return *reinterpret_cast<T*>(p);
}

} // namespace mpisim_priv
#endif

#endif
