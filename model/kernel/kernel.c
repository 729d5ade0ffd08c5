#include <stdio.h>
#include <stdlib.h>
#include "kernel.h"

struct kctx *kctx_cur;

void kernel_bug(const char *file, int line, const char *what)
{
	fprintf(stderr, "ppsim: kernel BUG at %s:%d: %s\n", file, line, what);
	abort();
}
