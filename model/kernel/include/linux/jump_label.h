/* ppsim shim: a static key is a counter read like any variable. */
#ifndef PPSIM_SHIM_LINUX_JUMP_LABEL_H
#define PPSIM_SHIM_LINUX_JUMP_LABEL_H
struct static_key_false { int enabled; };
#define DEFINE_STATIC_KEY_FALSE(name)	struct static_key_false name = { 0 }
#define DECLARE_STATIC_KEY_FALSE(name)	extern struct static_key_false name
#define static_branch_unlikely(k)	unlikely((k)->enabled > 0)
#define static_branch_inc(k)		((k)->enabled++)
#define static_branch_dec(k)		((k)->enabled--)
#endif
