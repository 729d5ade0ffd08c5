/* ppsim shim: the errno values, as the kernel numbers them. */
#include <asm-generic/errno.h>
