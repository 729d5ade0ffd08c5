/* ppsim compare's table (compare.h). */
#include <math.h>
#include <string.h>
#include "compare.h"

static void put_pair(FILE *f, int w, const struct cmp_row *a,
		     const struct cmp_row *b)
{
	const struct cmp_row *r = a ? a : b;
	char va[32] = "-", vb[32] = "-", delta[16] = "-";
	const char *beyond = a && b ? "-" : a ? "only A" : "only B";

	if (a)
		snprintf(va, sizeof(va), isnan(a->ci95) ? "%.2f" :
			 "%.2f ±%.2f", a->value, a->ci95);
	if (b)
		snprintf(vb, sizeof(vb), isnan(b->ci95) ? "%.2f" :
			 "%.2f ±%.2f", b->value, b->ci95);
	if (a && b && a->value > 0)
		snprintf(delta, sizeof(delta), "%+.1f",
			 (b->value - a->value) / a->value * 100);
	if (a && b && !isnan(a->ci95) && !isnan(b->ci95))
		beyond = fabs(b->value - a->value) > a->ci95 + b->ci95 ?
			 "yes" : "no";
	/* ± is two bytes and one column */
	fprintf(f, "%-*s %-4s %*s %*s %7s  %s\n", w, r->key, r->unit,
		14 + (a && !isnan(a->ci95)), va, 14 + (b && !isnan(b->ci95)),
		vb, delta, beyond);
}

void cmp_write_table(FILE *f, const char *path_a, const char *path_b,
		     const struct cmp_pair *pairs, int nr)
{
	int w = 12;

	for (int i = 0; i < nr; i++) {
		const struct cmp_row *r = pairs[i].a ? pairs[i].a : pairs[i].b;

		if ((int)strlen(r->key) > w)
			w = (int)strlen(r->key);
	}
	fprintf(f, "# A: %s\n# B: %s\n", path_a, path_b);
	fprintf(f, "%-*s %-4s %14s %14s %7s  %s\n", w, "rate of", "unit", "A",
		"B", "delta%", "beyond CIs");
	for (int i = 0; i < nr; i++)
		put_pair(f, w, pairs[i].a, pairs[i].b);
	fprintf(f, "# beyond CIs: |B - A| larger than the two 95 %% "
		"confidence half-widths together\n");
}
