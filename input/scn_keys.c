/*
 * Keys by name: lookups, the nearest name to a misspelt one, and what
 * the registry says of a key (ppsim keys KEY, --set, sweeps).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "scn_private.h"

const struct key *scn_find_key(const char *section, const char *name)
{
	for (size_t i = 0; i < scn_registry_len; i++)
		if (!strcmp(scn_registry[i].section, section) &&
		    !strcmp(scn_registry[i].name, name))
			return &scn_registry[i];
	return NULL;
}

/*
 * The edit distance of a and b, or limit if it is limit or more; letters
 * differing in case only are equal (WIN_STACK is win_stack).  Only the
 * band of cells within limit of the diagonal is computed, row by row, and
 * a row that reaches limit everywhere ends it: a suggestion wants a
 * distance of 3 at most, and an unknown key is compared with every key.
 */
size_t scn_edit_distance(const char *a, const char *b, size_t limit)
{
	size_t la = strlen(a), lb = strlen(b), prev[64], cur[64];

	if (la >= 64 || lb >= 64 || (la > lb ? la - lb : lb - la) >= limit)
		return limit;
	for (size_t j = 0; j <= lb; j++)
		prev[j] = j < limit ? j : limit;
	for (size_t i = 1; i <= la; i++) {
		size_t lo = i >= limit ? i - limit + 1 : 1;
		size_t hi = i + limit - 1 < lb ? i + limit - 1 : lb;
		size_t row_min = cur[0] = i < limit ? i : limit;

		cur[lo - 1] = lo > 1 ? limit : cur[0];
		for (size_t j = lo; j <= hi; j++) {
			size_t v = prev[j - 1] +
				   (tolower((unsigned char)a[i - 1]) !=
				    tolower((unsigned char)b[j - 1]));

			if (prev[j] + 1 < v)
				v = prev[j] + 1;
			if (cur[j - 1] + 1 < v)
				v = cur[j - 1] + 1;
			cur[j] = v < limit ? v : limit;
			if (cur[j] < row_min)
				row_min = cur[j];
		}
		if (hi < lb)	/* the next row reads one cell past the band */
			cur[hi + 1] = limit;
		if (row_min >= limit)
			return limit;
		memcpy(prev, cur, (lb + 1) * sizeof(*prev));
	}
	return prev[lb];
}

/* Keys a scenario may still carry from an earlier ppsim, and what took
 * their place: the value cannot be carried over, its unit changed. */
static const struct { const char *key, *now; } retired_keys[] = {
	{ "cache.l2_lat", "cache.l2_cycles, in core cycles" },
	{ "model.hide_random", "model.win_random, in cycles of work" },
	{ "model.hide_stream", "model.win_ring, in cycles of work" },
};

const char *scn_retired(const char *section, const char *name)
{
	char key[160];

	snprintf(key, sizeof(key), "%s.%s", section, name);
	for (size_t i = 0; i < sizeof(retired_keys) / sizeof(*retired_keys); i++)
		if (!strcmp(key, retired_keys[i].key))
			return retired_keys[i].now;
	return NULL;
}

/* "section.name" of the key closest to what was written, or "" */
void scn_suggest(const char *section, const char *name, char *out,
		 size_t len)
{
	char want[160], have[160];
	size_t best = 4;

	snprintf(want, sizeof(want), "%s.%s", section, name);
	out[0] = '\0';
	for (size_t i = 0; i < scn_registry_len; i++) {
		size_t d;

		const char *a = want, *b = have;

		snprintf(have, sizeof(have), "%s.%s", scn_registry[i].section,
			 scn_registry[i].name);
		if (strcmp(scn_registry[i].section, section) == 0) {
			a = name;
			b = scn_registry[i].name;
		}
		/* the lengths' difference is a lower bound of the distance:
		 * most keys are too far to be worth the table */
		if ((size_t)labs((long)strlen(a) - (long)strlen(b)) >= best)
			continue;
		d = scn_edit_distance(a, b, best);
		if (d < best) {
			best = d;
			snprintf(out, len, "%s%s%s",
				 strcmp(scn_registry[i].section, "case") ?
				 scn_registry[i].section : "",
				 strcmp(scn_registry[i].section, "case") ? "." : "",
				 scn_registry[i].name);
		}
	}
}

const struct key *scn_find_dotted(const char *key)
{
	const char *dot = strchr(key, '.');
	char section[32];

	/* [global]'s keys are the cases' (global.duration is duration) */
	if (!dot || !strncmp(key, "global.", 7))
		return scn_find_key("case", dot ? dot + 1 : key);
	snprintf(section, sizeof(section), "%.*s", (int)(dot - key), key);
	return scn_find_key(section, dot + 1);
}

size_t scn_key_index(const char *dotted)
{
	char section[32];
	const char *dot = strchr(dotted, '.');

	snprintf(section, sizeof(section), "%.*s", (int)(dot - dotted), dotted);
	return (size_t)(scn_find_key(section, dot + 1) - scn_registry);
}

int scn_case_get(const struct scn_case *c, const char *key, double *v)
{
	const struct key *k = scn_find_dotted(key);

	if (!k || !scn_is_number(k) || k->in_scenario)
		return -1;
	*v = scn_load_number(k, (const char *)c + k->offset);
	return 0;
}

int scn_case_word(const struct scn_case *c, const char *key, char *buf,
		  size_t len)
{
	const struct key *k = scn_find_dotted(key);

	if (!k || k->store != KEY_WORD || k->in_scenario)
		return -1;
	snprintf(buf, len, "%s", scn_word_at(k, scn_word_index(k, (const char *)c +
							      k->offset)));
	return 0;
}

int scn_case_set(struct scn_case *c, const char *key, const char *value,
		 char *why, size_t len)
{
	const struct key *k = scn_find_dotted(key);

	if (!k || !scn_is_number(k) || k->in_scenario) {
		snprintf(why, len, "unknown numeric key '%s'", key);
		return -1;
	}
	return scn_set_value(c, NULL, k, value, NULL, why, len);
}

bool scn_key_written(const struct scenario *scn, const char *key)
{
	const struct key *k = scn_find_dotted(key);

	return k && scn->written[k - scn_registry];
}

bool scn_key_numeric(const char *key)
{
	const struct key *k = scn_find_dotted(key);

	return k && scn_is_number(k);
}

bool scn_key_known(const char *key)
{
	return scn_find_dotted(key) != NULL;
}

bool scn_key_one_value(const char *key)
{
	const struct key *k = scn_find_dotted(key);

	return k && (scn_is_number(k) || k->store == KEY_WORD);
}

int scn_nr_keys(void)
{
	return (int)scn_registry_len;
}

void scn_key_name(int i, char *buf, size_t len)
{
	snprintf(buf, len, "%s.%s", scn_registry[i].section, scn_registry[i].name);
}

int scn_explain_key(FILE *f, const char *key, char *hint, size_t len)
{
	const struct key *k = scn_find_dotted(key);
	const char *dot = strchr(key, '.');
	char lo[32], hi[32], readers[256];

	if (!k) {
		char section[32];

		/* a section's key by its bare name (node_lat): each section
		 * that has one, the nearest key's name only if none does */
		hint[0] = '\0';
		for (size_t i = 0; i < scn_registry_len && !dot; i++) {
			const struct key *r = &scn_registry[i];
			size_t n = strlen(hint);

			if (strcmp(r->name, key))
				continue;
			snprintf(hint + n, len - n, "%s%s.%s", n ? " or " : "",
				 r->section, r->name);
		}
		if (*hint)
			return -1;
		snprintf(section, sizeof(section), "%.*s",
			 dot ? (int)(dot - key) : 4, dot ? key : "case");
		scn_suggest(section, dot ? dot + 1 : key, hint, len);
		return -1;
	}
	fprintf(f, "%s\n  %s.\n", key, k->help);
	fprintf(f, "  default: %s\n", *k->def ? k->def : "none");
	if (scn_is_number(k)) {
		/* the bounds exactly: 4194304, not 4.1943e+06 */
		scn_format_digits(key, k->min, SCN_FILE_DIGITS, lo, sizeof(lo));
		scn_format_digits(key, k->max, SCN_FILE_DIGITS, hi, sizeof(hi));
		fprintf(f, "  unit:    %s\n  range:   %s to %s\n",
			*k->unit ? k->unit : "none (a count or a ratio)", lo,
			hi);
	} else if (k->store == KEY_WORD) {
		fprintf(f, "  values: ");
		for (int i = 0; scn_word_at(k, i); i++)
			fprintf(f, " %s", scn_word_at(k, i));
		fputc('\n', f);
	}
	workload_readers(key, readers, sizeof(readers));
	if (*readers)
		fprintf(f, "  read by: %s cases only\n", readers);
	if (k->in_scenario)
		fprintf(f, "  set in:  [%s] (the whole scenario's)\n",
			k->section);
	else if (!strcmp(k->section, "case"))
		fprintf(f, "  set in:  [global], [case NAME], or --set %s=...\n",
			k->name);
	else if (scn_whole_machine(k))	/* one machine, every case's */
		fprintf(f, "  set in:  [%s] as %s, or --set %s.%s=... (the "
			"whole machine's: not in a [case])\n", k->section,
			k->name, k->section, k->name);
	else
		fprintf(f, "  set in:  [%s] as %s, a [case NAME] as %s.%s, or "
			"--set %s.%s=...\n", k->section, k->name, k->section,
			k->name, k->section, k->name);
	return 0;
}

bool scn_key_whole(const char *key)
{
	const struct key *k = scn_find_dotted(key);

	return k && scn_is_number(k) && k->store != KEY_DOUBLE;
}

bool scn_key_measures(const char *key)
{
	const struct key *k = scn_find_dotted(key);

	return k && (k == scn_find_key("case", "warmup") ||
		     k == scn_find_key("case", "duration") ||
		     k == scn_find_key("case", "sample") ||
		     k == scn_find_key("case", "precision"));
}

const char *scn_key_unit(const char *key)
{
	static const char *const base[] = {
		[KEY_TIME] = "s", [KEY_SIZE] = "B", [KEY_FREQ] = "Hz",
		[KEY_BYTERATE] = "B/s", [KEY_BITRATE] = "bit/s",
		[KEY_PKTRATE] = "packets/s",
	};
	const struct key *k = scn_find_dotted(key);

	if (!k || !scn_is_number(k))
		return NULL;
	return k->kind == KEY_PLAIN ? k->unit : base[k->kind];
}

int scn_numeric_keys(const char *section, char (*keys)[SCN_KEY_MAX],
		     int max)
{
	int n = 0;

	for (size_t i = 0; i < scn_registry_len; i++) {
		const struct key *k = &scn_registry[i];

		if (strcmp(k->section, section) || !scn_is_number(k) ||
		    k->in_scenario)
			continue;
		if (n < max)
			snprintf(keys[n], SCN_KEY_MAX, "%s%s%s",
				 strcmp(section, "case") ? section : "",
				 strcmp(section, "case") ? "." : "", k->name);
		n++;
	}
	return n;
}

int scn_case_diff(const struct scn_case *a, const struct scn_case *b,
		  char *key, size_t len)
{
	int n = 0;

	for (size_t i = 0; i < scn_registry_len; i++) {
		const struct key *k = &scn_registry[i];
		const char *fa = (const char *)a + k->offset;
		const char *fb = (const char *)b + k->offset;
		bool differ;

		if (k->in_scenario || k->store == KEY_POLICIES ||
		    k->store == KEY_MEASURED || k->store == KEY_POLICY)
			continue;
		if (scn_is_number(k))
			differ = scn_load_number(k, fa) != scn_load_number(k, fb);
		else if (k->store == KEY_WORD)
			differ = scn_word_index(k, fa) != scn_word_index(k, fb);
		else
			continue;
		if (differ) {
			size_t at = n++ ? strlen(key) : 0;

			snprintf(key + at, at < len ? len - at : 0, "%s%s%s%s",
				 at ? " " : "",
				 strcmp(k->section, "case") ? k->section : "",
				 strcmp(k->section, "case") ? "." : "",
				 k->name);
		}
	}
	return n;
}
