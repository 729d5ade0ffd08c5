/* ppsim shim: no fault injection through the kernel's list of functions. */
#define ALLOW_ERROR_INJECTION(fname, type)
