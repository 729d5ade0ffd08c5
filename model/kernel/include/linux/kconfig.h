/* ppsim shim: IS_ENABLED(), the kernel's way: true for an option that
 * the build defines to 1 (-DCONFIG_NUMA), false for one it leaves out. */
#ifndef PPSIM_SHIM_LINUX_KCONFIG_H
#define PPSIM_SHIM_LINUX_KCONFIG_H
#define __ARG_PLACEHOLDER_1 0,
#define __take_second_arg(__ignored, val, ...) val
#define ____is_defined(arg1_or_junk)	__take_second_arg(arg1_or_junk 1, 0)
#define ___is_defined(val)		____is_defined(__ARG_PLACEHOLDER_##val)
#define IS_ENABLED(option)		___is_defined(option)
#endif
