// Work that waits until no rank of the host process can run (World::run calls the hooks before
// it asks the kernel for more): a service that may only act while its rank is blocked registers
// here, so that it acts at the latest when the host goes idle.
#pragma once

namespace mpilite {

/// Registers `fn(key)`; it returns whether it did something (which may have made a rank ready).
void add_idle_hook(void* key, bool (*fn)(void*));
void remove_idle_hook(void* key);

/// Runs every hook once; true if one of them did something.
bool run_idle_hooks();
/// No hook is registered: an idle round would go straight to the kernel.
bool no_idle_hooks();

/// Forgets every hook (a World that ends: what registered them belongs to it).
void clear_idle_hooks();

} // namespace mpilite
