/*
 * ppsim keys: every scenario key, the man page's KEYS section, or one key
 * explained (as fio --cmdhelp): what the key table says of it, then the
 * value each shipped hardware profile and calibration gives it, with the
 * comment that says where the value came from.
 */
#include <glob.h>
#include <stdio.h>
#include <string.h>
#include "cmd.h"
#include "../io/datadir.h"

/* The line of [section] name in a shipped file, and the comment lines
 * that continue it, as "  NAME: value ; comment".  Returns whether the
 * file sets the key. */
static bool print_source(const char *path, const char *name,
			 const char *section, const char *key)
{
	char line[512], cur[64] = "";
	bool found = false, more = false;
	int problem;
	FILE *f = datadir_open_regular(path);

	if (!f)
		return false;
	while (datadir_getline(f, line, sizeof(line), &problem) >= 0) {
		char *p = line + strspn(line, " \t");
		size_t n = strlen(key);

		if (more && (*p == ';' || *p == '#') && p != line) {
			printf("  %*s %s\n", (int)strlen(name) + 1, "", p);
			continue;
		}
		more = false;
		if (*p == '[') {
			snprintf(cur, sizeof(cur), "%.*s",
				 (int)strcspn(p + 1, "]"), p + 1);
			continue;
		}
		if (found || strcmp(cur, section) || strncmp(p, key, n) ||
		    (p[n] != ' ' && p[n] != '\t' && p[n] != '='))
			continue;
		p += n + strspn(p + n, " \t");
		if (*p != '=')
			continue;
		p++;
		p += strspn(p, " \t");
		printf("  %s: %s\n", name, p);
		found = more = true;
	}
	fclose(f);
	return found;
}

/* Every shipped profile (scenarios/hw/) and calibration that sets key. */
static void print_sources(const char *key)
{
	static const char *const where[] = { "scenarios/hw/*.ini",
					     "scenarios/*.cal.ini" };
	const char *dot = strchr(key, '.');
	char section[32], pattern[4096];
	int found = 0;

	if (!dot)	/* a case key: the scenarios' own, no profile's */
		return;
	snprintf(section, sizeof(section), "%.*s", (int)(dot - key), key);
	printf("  source:  the shipped profiles and calibrations (under %s/"
	       "scenarios):\n", datadir_path());
	for (size_t w = 0; w < sizeof(where) / sizeof(where[0]); w++) {
		glob_t g;

		snprintf(pattern, sizeof(pattern), "%.3000s/%s",
			 datadir_path(), where[w]);
		if (glob(pattern, 0, NULL, &g))
			continue;
		/* the name an include says: hw/x.ini, x.cal.ini */
		for (size_t i = 0; i < g.gl_pathc; i++)
			found += print_source(g.gl_pathv[i], g.gl_pathv[i] +
					      strlen(pattern) -
					      strlen(where[w]) +
					      strlen("scenarios/"),
					      section, dot + 1);
		globfree(&g);
	}
	if (!found)
		printf("  none sets it: the default holds\n");
}

int keys_main(int argc, char **argv)
{
	char hint[160];
	struct cmd_opts o;
	int help = cmd_parse(argc, argv, cmd_spec("keys"), &o);

	if (help)
		return help > 0 ? 0 : 2;
	if (!o.nr_args) {
		scn_print_keys(stdout, o.man);
		return 0;
	}
	if (o.man) {
		fprintf(stderr, "ppsim keys: --man lists every key: no KEY\n");
		return 2;
	}
	if (scn_explain_key(stdout, o.file, hint, sizeof(hint))) {
		fprintf(stderr, "ppsim keys: unknown key '%s'%s%s%s\n", o.file,
			*hint ? " (did you mean " : "", hint, *hint ? "?)" : "");
		return 2;
	}
	print_sources(o.file);
	return 0;
}
