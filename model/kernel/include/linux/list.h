/* ppsim shim: the list types are linux/types.h's; no list is walked. */
#include <linux/types.h>
