/*
 * A key's value: numbers in their units, words, policies and measured
 * figures, read from text into a case and written back.
 */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "scn_private.h"

struct suffix {
	const char *s;
	double mult;
	bool shown;	/* scn_format_value writes values with it */
};

static const struct suffix time_sfx[] = {
	{ "ns", 1e-9, true }, { "us", 1e-6, true }, { "ms", 1e-3, true },
	{ "s", 1, true }, { 0, 0, 0 } };
static const struct suffix size_sfx[] = {
	{ "B", 1, true }, { "K", 1024, true }, { "KiB", 1024, false },
	{ "M", 1 << 20, true }, { "MiB", 1 << 20, false },
	{ "G", 1 << 30, true }, { "GiB", 1 << 30, false }, { 0, 0, 0 } };
static const struct suffix freq_sfx[] = {
	{ "Hz", 1, true }, { "kHz", 1e3, true }, { "MHz", 1e6, true },
	{ "GHz", 1e9, true }, { 0, 0, 0 } };
static const struct suffix byterate_sfx[] = {
	{ "B/s", 1, true }, { "MB/s", 1e6, true }, { "GB/s", 1e9, true },
	{ "Mbps", 1e6 / 8, false }, { "Gbps", 1e9 / 8, false }, { 0, 0, 0 } };
static const struct suffix bitrate_sfx[] = {
	{ "bps", 1, true }, { "Mbps", 1e6, true }, { "Gbps", 1e9, true },
	{ 0, 0, 0 } };
static const struct suffix pktrate_sfx[] = {
	{ "pps", 1, true }, { "Kpps", 1e3, true }, { "Mpps", 1e6, true },
	{ 0, 0, 0 } };
static const struct suffix none_sfx[] = { { "", 1, true }, { 0, 0, 0 } };

static const struct suffix *const suffixes[] = {
	[KEY_PLAIN] = none_sfx, [KEY_TIME] = time_sfx, [KEY_SIZE] = size_sfx,
	[KEY_FREQ] = freq_sfx, [KEY_BYTERATE] = byterate_sfx,
	[KEY_BITRATE] = bitrate_sfx, [KEY_PKTRATE] = pktrate_sfx,
};

bool scn_is_number(const struct key *k)
{
	return k->store <= KEY_DOUBLE;
}

/* A number in base units fits its key: whole where the key keeps whole
 * numbers, within its range; text is how the value was written. */
static int check_number(const struct key *k, double v, const char *text,
			char *why, size_t len)
{
	if (k->store != KEY_DOUBLE && v != floor(v)) {
		snprintf(why, len, "'%s' is not a whole number", text);
		return -1;
	}
	if (v < k->min || v > k->max) {
		snprintf(why, len, "%s is out of range [%.10g, %.10g]%s%s",
			 text, k->min, k->max, *k->unit ? " " : "",
			 *k->unit && k->kind != KEY_TIME ? k->unit :
			 k->kind == KEY_TIME ? "s" : "");
		return -1;
	}
	return 0;
}

int scn_parse_number(const struct key *k, const char *text, double *v,
		     char *why, size_t len)
{
	const struct suffix *sfx = suffixes[k->kind];
	const char *unit;
	char *end;

	errno = 0;
	*v = strtod(text, &end);
	if (end != text && errno == ERANGE && fabs(*v) < DBL_MIN) {
		/* strtod's underflow: a subnormal or 0, digits lost */
		snprintf(why, len, "'%s' is too close to 0 for a double "
			 "(below %g): write 0 or a larger number", text,
			 DBL_MIN);
		return -1;
	}
	if (end != text && errno == ERANGE) {
		snprintf(why, len, "'%s' is beyond what a double holds", text);
		return -1;
	}
	if (end == text || errno || !isfinite(*v)) {
		snprintf(why, len, "'%s' is not a number", text);
		return -1;
	}
	/* strtod reads C's hexadecimal too: 0x10 is no figure a source gives */
	if (memchr(text, 'x', (size_t)(end - text)) ||
	    memchr(text, 'X', (size_t)(end - text))) {
		snprintf(why, len, "'%s' is not a decimal number", text);
		return -1;
	}
	/* a bare number is in the key's unit; plain numbers take no suffix */
	unit = *end || sfx == none_sfx ? end : k->unit;
	for (; sfx->s; sfx++) {
		if (!strcmp(unit, sfx->s)) {
			*v *= sfx->mult;
			break;
		}
	}
	if (!sfx->s) {
		snprintf(why, len, "'%s': unknown unit '%s'", text, end);
		return -1;
	}
	return check_number(k, *v, text, why, len);
}

/* A policy the program has, by name; NULL with why if none: the names it
 * has, and how a kernel tree becomes one. */
static const struct pp_policy *policy_named(const struct pp_policy *const *set,
					    const char *name, char *why,
					    size_t len)
{
	const struct pp_policy *pol = pp_policy_find(set, name);
	size_t n;

	if (pol)
		return pol;
	n = (size_t)snprintf(why, len, "unknown policy '%s': this ppsim has",
			     name);
	for (int i = 0; set[i] && n < len; i++)
		n += (size_t)snprintf(why + n, len - n, " %s", set[i]->name);
	if (n < len)
		snprintf(why + n, len - n, " (a kernel tree is a policy with "
			 "./configure --with-linux=NAME=PATH)");
	return NULL;
}

/* policies = P ... into pols, or measured = P:VALUE ... (and a [fitted]
 * line) into figs: words of policy names, each with a value for figs.
 * Their number in *nr. */
int scn_parse_policy_words(const char *text, const struct pp_policy **pols,
			   struct scn_measured *figs, int *nr,
			   const struct pp_policy *const *set, char *why,
			   size_t len)
{
	char buf[SCN_LINE_MAX + 1], *save = NULL;
	bool values = figs != NULL;
	int n = 0;

	snprintf(buf, sizeof(buf), "%s", text);
	for (char *p = strtok_r(buf, " \t,", &save); p;
	     p = strtok_r(NULL, " \t,", &save)) {
		char *colon = strchr(p, ':'), *end;
		const struct pp_policy *pol;
		double v;

		if (n == SCN_MAX_POLICIES) {
			snprintf(why, len, "at most %d %s", SCN_MAX_POLICIES,
				 values ? "POLICY:VALUE figures" : "policies");
			return -1;
		}
		if (values && !colon) {
			snprintf(why, len, "'%s': expected POLICY:VALUE", p);
			return -1;
		}
		if (values)
			*colon = '\0';
		pol = policy_named(set, p, why, len);
		if (!pol)
			return -1;
		for (int i = 0; i < n; i++)
			if ((values ? figs[i].policy : pols[i]) == pol) {
				snprintf(why, len, "%s named twice", pol->name);
				return -1;
			}
		if (!values) {
			pols[n++] = pol;
			continue;
		}
		errno = 0;
		v = strtod(colon + 1, &end);
		/* strtod reads hex (0xB, 0x1.6p3): no figure is written so */
		if (end == colon + 1 || *end || errno || !(v > 0) ||
		    !isfinite(v) || strpbrk(colon + 1, "xX")) {
			snprintf(why, len, "'%s' is not a positive number",
				 colon + 1);
			return -1;
		}
		if (v < SCN_MEASURED_MIN) {
			snprintf(why, len, "%s: %s is less than a packet a "
				 "second (at least %g Mpps or Gbps)",
				 pol->name, colon + 1, SCN_MEASURED_MIN);
			return -1;
		}
		if (v > SCN_MEASURED_MAX) {
			snprintf(why, len, "%s: %s is more than any NIC "
				 "carries (at most %g Mpps or Gbps)", pol->name,
				 colon + 1, SCN_MEASURED_MAX);
			return -1;
		}
		figs[n++] = (struct scn_measured){ pol, v };
	}
	if (!n) {
		snprintf(why, len, values ? "no POLICY:VALUE" :
			 "no policy named");
		return -1;
	}
	*nr = n;
	return 0;
}

/* Where key k is kept: in the case, or in the scenario's [calibrate]. */
static void *field_of(const struct key *k, struct scn_case *c,
		      struct scn_calibrate *cal)
{
	return (char *)(k->in_scenario ? (void *)cal : (void *)c) + k->offset;
}

void scn_store_number(const struct key *k, void *field, double v)
{
	switch (k->store) {
	case KEY_INT: *(int *)field = (int)v; break;
	case KEY_U32: *(uint32_t *)field = (uint32_t)v; break;
	case KEY_U64: *(uint64_t *)field = (uint64_t)v; break;
	default: *(double *)field = v; break;
	}
}

double scn_load_number(const struct key *k, const void *field)
{
	switch (k->store) {
	case KEY_INT: return *(const int *)field;
	case KEY_U32: return *(const uint32_t *)field;
	case KEY_U64: return (double)*(const uint64_t *)field;
	default: return *(const double *)field;
	}
}

/* A word key's i-th value, NULL past the last. */
const char *scn_word_at(const struct key *k, int i)
{
	if (k->words)
		return k->words[i];
	return k->registry[i] ? k->registry[i]->name : NULL;
}

/* The index of the value a word key's field holds. */
int scn_word_index(const struct key *k, const void *field)
{
	int i = 0;

	if (k->words)
		return *(const int *)field;
	while (k->registry[i] &&
	       k->registry[i] != *(const struct workload_ops *const *)field)
		i++;
	return i;
}

/* A word key's field set to its i-th value. */
static void word_set(const struct key *k, void *field, int i)
{
	if (k->words)
		*(int *)field = i;
	else
		*(const struct workload_ops **)field = k->registry[i];
}

/* "'text': expected a, b or c" */
static void word_choices(const struct key *k, const char *text,
			 char *why, size_t len)
{
	int n = snprintf(why, len, "'%s': expected", text);

	for (int i = 0; scn_word_at(k, i) && n > 0 && (size_t)n < len; i++)
		n += snprintf(why + n, len - (size_t)n, "%s%s",
			      i == 0 ? " " : scn_word_at(k, i + 1) ? ", " : " or ",
			      scn_word_at(k, i));
}

/* Sets one key from its text; on error, why says what. */
int scn_set_value(struct scn_case *c, struct scn_calibrate *cal,
		  const struct key *k, const char *text,
		  const struct pp_policy *const *set, char *why,
		  size_t len)
{
	void *field = field_of(k, c, cal);
	double v;

	switch (k->store) {
	case KEY_WORD:
		for (int i = 0; scn_word_at(k, i); i++) {
			if (!strcmp(text, scn_word_at(k, i))) {
				word_set(k, field, i);
				return 0;
			}
		}
		word_choices(k, text, why, len);
		return -1;
	case KEY_POLICIES:
		return scn_parse_policy_words(text, c->policies, NULL,
					  &c->nr_policies, set, why, len);
	case KEY_MEASURED:
		return scn_parse_policy_words(text, NULL, c->measured,
					  &c->nr_measured, set, why, len);
	case KEY_POLICY:
		*(const struct pp_policy **)field = policy_named(set, text,
								 why, len);
		return *(const struct pp_policy **)field ? 0 : -1;
	case KEY_TEXT:
		if (strlen(text) >= SCN_TEXT_MAX) {
			snprintf(why, len, "longer than %d characters",
				 SCN_TEXT_MAX - 1);
			return -1;
		}
		snprintf((char *)field, SCN_TEXT_MAX, "%s", text);
		return 0;
	default:
		break;
	}
	if (scn_parse_number(k, text, &v, why, len))
		return -1;
	scn_store_number(k, field, v);
	return 0;
}

void scn_format_digits(const char *key, double v, int digits, char *buf,
		       size_t len)
{
	const struct key *k = scn_find_dotted(key);
	const struct suffix *sfx = k ? suffixes[k->kind] : none_sfx;
	const struct suffix *best = NULL;

	/* the largest multiple the value reaches, else the smallest */
	for (; sfx->s; sfx++)
		if (sfx->shown && (!best || fabs(v) >= sfx->mult))
			best = sfx;
	snprintf(buf, len, "%.*g%s", digits, v / best->mult, best->s);
}

void scn_format_value(const char *key, double v, char *buf, size_t len)
{
	scn_format_digits(key, v, 6, buf, len);
}

/* A number as a file writes it, at full precision: a round trip through
 * the parser gives the same double for any value ppsim printed. */
void scn_write_number(FILE *f, const struct key *k, double v)
{
	const struct suffix *sfx = suffixes[k->kind], *best = NULL;

	for (; sfx->s; sfx++)
		if (sfx->shown && (!best || fabs(v) >= sfx->mult))
			best = sfx;
	fprintf(f, "%.15g%s", v / best->mult, best->s);
}
