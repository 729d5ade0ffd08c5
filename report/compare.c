/* ppsim compare's outputs (compare.h). */
#include <math.h>
#include <string.h>
#include "config.h"
#include "compare.h"
#include "report.h"
#include "../io/datadir.h"

/* B against A in %, NAN unless both are there and A is above zero. */
static double cmp_delta(const struct cmp_row *a, const struct cmp_row *b)
{
	return a && b && a->value > 0 ? (b->value - a->value) / a->value * 100
				      : NAN;
}

/* "yes" when B is A's beyond both CIs, "no", or NULL: a side lacks one. */
static const char *cmp_beyond(const struct cmp_row *a, const struct cmp_row *b)
{
	if (!a || !b || isnan(a->ci95) || isnan(b->ci95))
		return NULL;
	return fabs(b->value - a->value) > a->ci95 + b->ci95 ? "yes" : "no";
}

static void put_pair(FILE *f, int w, const struct cmp_row *a,
		     const struct cmp_row *b)
{
	const struct cmp_row *r = a ? a : b;
	char va[32] = "-", vb[32] = "-", delta[16] = "-";
	const char *beyond = cmp_beyond(a, b);

	if (!beyond)
		beyond = a && b ? "-" : a ? "only A" : "only B";
	if (a)
		snprintf(va, sizeof(va), isnan(a->ci95) ? "%.2f" :
			 "%.2f ±%.2f", a->value, a->ci95);
	if (b)
		snprintf(vb, sizeof(vb), isnan(b->ci95) ? "%.2f" :
			 "%.2f ±%.2f", b->value, b->ci95);
	if (!isnan(cmp_delta(a, b)))
		snprintf(delta, sizeof(delta), "%+.1f", cmp_delta(a, b));
	/* ± is two bytes and one column */
	fprintf(f, "%-*s %-4s %*s %*s %7s  %s\n", w, r->key, r->unit,
		14 + (a && !isnan(a->ci95)), va, 14 + (b && !isnan(b->ci95)),
		vb, delta, beyond);
}

/* The sides whose costs are another core's, as their CSVs say. */
static void put_borrowed(FILE *f, const struct cmp_head *h)
{
	if (h->borrowed_a)
		fprintf(f, "# A: costs borrowed for %s\n", h->borrowed_a);
	if (h->borrowed_b)
		fprintf(f, "# B: costs borrowed for %s\n", h->borrowed_b);
}

void cmp_write_table(FILE *f, const struct cmp_head *h,
		     const struct cmp_pair *pairs, int nr)
{
	int w = 12;

	for (int i = 0; i < nr; i++) {
		const struct cmp_row *r = pairs[i].a ? pairs[i].a : pairs[i].b;

		if ((int)strlen(r->key) > w)
			w = (int)strlen(r->key);
	}
	fprintf(f, "# A: %s%s%s\n# B: %s%s%s\n", h->label_a,
		h->machine_a ? ", machine: " : "",
		h->machine_a ? h->machine_a : "", h->label_b,
		h->machine_b ? ", machine: " : "",
		h->machine_b ? h->machine_b : "");
	put_borrowed(f, h);
	fprintf(f, "%-*s %-4s %14s %14s %7s  %s\n", w, "rate of", "unit", "A",
		"B", "delta%", "beyond CIs");
	for (int i = 0; i < nr; i++)
		put_pair(f, w, pairs[i].a, pairs[i].b);
	fprintf(f, "# beyond CIs: |B - A| larger than the two 95 %% "
		"confidence half-widths together\n");
}

static void cmp_csv_num(FILE *f, double v)
{
	if (isnan(v))
		fputc(',', f);
	else
		fprintf(f, ",%.6g", v);
}

void cmp_write_csv(FILE *f, const struct cmp_head *h,
		   const struct cmp_pair *pairs, int nr)
{
	fputs("# A: ", f);
	datadir_put_line_text(f, h->label_a);
	if (h->machine_a)
		fprintf(f, ", machine: %s", h->machine_a);
	fputs("\n# B: ", f);
	datadir_put_line_text(f, h->label_b);
	if (h->machine_b)
		fprintf(f, ", machine: %s", h->machine_b);
	fputc('\n', f);
	put_borrowed(f, h);
	for (int k = 0; k < h->nr_names; k++) {
		rep_csv_text(f, h->names[k]);
		fputc(',', f);
	}
	fputs("unit,a,a_ci95,b,b_ci95,delta_pct,beyond_cis\n", f);
	for (int i = 0; i < nr; i++) {
		const struct cmp_row *a = pairs[i].a, *b = pairs[i].b;
		const struct cmp_row *r = a ? a : b;
		const char *field = r->fields, *beyond = cmp_beyond(a, b);

		for (int k = 0; k < h->nr_names; k++) {
			rep_csv_text(f, field);
			fputc(',', f);
			field += strlen(field) + 1;
		}
		rep_csv_text(f, r->unit);
		cmp_csv_num(f, a ? a->value : NAN);
		cmp_csv_num(f, a ? a->ci95 : NAN);
		cmp_csv_num(f, b ? b->value : NAN);
		cmp_csv_num(f, b ? b->ci95 : NAN);
		cmp_csv_num(f, cmp_delta(a, b));
		fprintf(f, ",%s\n", beyond ? beyond : "");
	}
}

/* "side": {"value": v, "ci95": c}, or null without that side. */
static void cmp_json_side(FILE *f, const char *side, const struct cmp_row *r)
{
	fprintf(f, "\"%s\": ", side);
	if (!r) {
		fputs("null, ", f);
		return;
	}
	fputc('{', f);
	rep_json_num(f, "value", r->value, false);
	rep_json_num(f, "ci95", r->ci95, true);
	fputs("}, ", f);
}

void cmp_write_json(FILE *f, const struct cmp_head *h,
		    const struct cmp_pair *pairs, int nr)
{
	fprintf(f, "{\"ppsim\": \"%s\", \"command\": \"compare\", \"a\": ",
		PACKAGE_VERSION);
	rep_json_text(f, h->label_a);
	if (h->machine_a) {
		fputs(", \"machine_a\": ", f);
		rep_json_text(f, h->machine_a);
	}
	fputs(", \"b\": ", f);
	rep_json_text(f, h->label_b);
	if (h->machine_b) {
		fputs(", \"machine_b\": ", f);
		rep_json_text(f, h->machine_b);
	}
	if (h->borrowed_a) {
		fputs(", \"costs_borrowed_a\": ", f);
		rep_json_text(f, h->borrowed_a);
	}
	if (h->borrowed_b) {
		fputs(", \"costs_borrowed_b\": ", f);
		rep_json_text(f, h->borrowed_b);
	}
	fputs(", \"rows\": [\n", f);
	for (int i = 0; i < nr; i++) {
		const struct cmp_row *a = pairs[i].a, *b = pairs[i].b;
		const struct cmp_row *r = a ? a : b;
		const char *field = r->fields, *beyond = cmp_beyond(a, b);

		fputs("  {", f);
		for (int k = 0; k < h->nr_names; k++) {
			rep_json_text(f, h->names[k]);
			fputs(": ", f);
			rep_json_text(f, field);
			fputs(", ", f);
			field += strlen(field) + 1;
		}
		fputs("\"unit\": ", f);
		rep_json_text(f, r->unit);
		fputs(", ", f);
		cmp_json_side(f, "a", a);
		cmp_json_side(f, "b", b);
		rep_json_num(f, "delta_pct", cmp_delta(a, b), false);
		fprintf(f, "\"beyond_cis\": %s}%s\n", beyond ?
			(strcmp(beyond, "yes") ? "false" : "true") : "null",
			i + 1 < nr ? "," : "");
	}
	fputs("]}\n", f);
}
