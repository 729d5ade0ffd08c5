/* ppsim shim: struct_group_tagged(), as uapi/linux/stddef.h has it: the
 * members are both the struct's own and those of a named struct TAG. */
#ifndef PPSIM_SHIM_LINUX_STDDEF_H
#define PPSIM_SHIM_LINUX_STDDEF_H
#define struct_group_tagged(TAG, NAME, ...) \
	union { struct { __VA_ARGS__ }; struct TAG { __VA_ARGS__ } NAME; }
#endif
