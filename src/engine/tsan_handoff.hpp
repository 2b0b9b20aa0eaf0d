#pragma once
// ThreadSanitizer and oneTBB. Debian's libtbb is not instrumented, so TSan cannot see how TBB
// hands a task, or a pipeline token, from one thread to another: every such hand-over would be
// reported as a data race. These two calls state it instead, at the few places where the engine
// gives work to TBB and takes results back. Both compile to nothing outside TSan builds.
//
// They order only what they name: threads that each take_over() the same tag are not ordered
// among themselves, so a real race between two workers is still reported.
#if defined(__SANITIZE_THREAD__)
#define NQUEENS_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define NQUEENS_TSAN 1
#endif
#endif

#ifdef NQUEENS_TSAN
extern "C" void __tsan_acquire(void* addr);
extern "C" void __tsan_release(void* addr);
#endif

namespace nqueens::detail {

//! Everything this thread did so far happens before whatever a later take_over(tag) follows.
inline void hand_over([[maybe_unused]] const void* tag) {
#ifdef NQUEENS_TSAN
  __tsan_release(const_cast<void*>(tag));
#endif
}

//! This thread continues what hand_over(tag) calls made before now.
inline void take_over([[maybe_unused]] const void* tag) {
#ifdef NQUEENS_TSAN
  __tsan_acquire(const_cast<void*>(tag));
#endif
}

}  // namespace nqueens::detail
