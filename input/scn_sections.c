/*
 * [sweep NAME] and [fitted] sections.
 */
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include "scn_private.h"

static struct scn_sweep *sweep_named(struct scenario *scn, const char *name)
{
	for (int i = 0; i < scn->nr_sweeps; i++)
		if (!strcmp(scn->sweeps[i].name, name))
			return &scn->sweeps[i];
	return NULL;
}

/* [sweep NAME] sections: vary = KEY=V1,V2 ..., cases = NAME ... */
void scn_build_sweeps(struct loader *ld)
{
	struct scenario *scn = ld->scn;
	/* the line that set each sweep's vary and cases */
	const struct assignment *by[SCN_MAX_SWEEPS][2] = { { NULL } };

	for (int i = 0; i < ld->nr_as; i++) {
		const struct assignment *a = &ld->as[i];
		struct scn_sweep *sw;
		char *field;

		if (strncmp(a->section, "sweep ", 6))
			continue;
		sw = sweep_named(scn, a->section + 6);
		if (!sw) {
			if (scn->nr_sweeps == SCN_MAX_SWEEPS) {
				scn_error(ld, a->file, a->line, "more than %d "
					 "sweeps", SCN_MAX_SWEEPS);
				return;
			}
			sw = &scn->sweeps[scn->nr_sweeps++];
			snprintf(sw->name, sizeof(sw->name), "%s",
				 a->section + 6);
			sw->file = a->file;
			sw->line = a->line;
		}
		if (!*a->key)
			continue;	/* the header */
		field = !strcmp(a->key, "vary") ? sw->vary :
			!strcmp(a->key, "cases") ? sw->cases : NULL;
		if (!field) {
			scn_error(ld, a->file, a->line, "unknown key '%s' in a "
				 "[sweep]: expected vary or cases", a->key);
			continue;
		}
		scn_check_include_over(ld, a, by[sw - scn->sweeps]
					  [field == sw->cases]);
		by[sw - scn->sweeps][field == sw->cases] = a;
		if (strlen(a->value) >= SCN_TEXT_MAX)
			scn_error(ld, a->file, a->line, "%s: longer than %d "
				 "characters", a->key, SCN_TEXT_MAX - 1);
		else
			snprintf(field, SCN_TEXT_MAX, "%s", a->value);
		if (field == sw->vary) {
			sw->file = a->file;
			sw->line = a->line;
		}
	}
	for (int i = 0; i < scn->nr_sweeps; i++)
		if (!scn->sweeps[i].vary[0])
			scn_error(ld, scn->sweeps[i].file, scn->sweeps[i].line,
				 "[sweep %s] has no 'vary'", scn->sweeps[i].name);
}

/* Whether a file's [fitted] lines are a calibration of this scenario: the
 * scenario file itself (when it has cases), or the calibration calibrate
 * --update writes for it (its name with .cal.ini for its extension, under
 * any name: the same file).  Another scenario's calibration included for
 * its values (the seed's fit in the XDP paper's host, in a scenario of
 * one's own that fits something else) names the cases of that one. */
static bool fitted_here(const struct loader *ld, const char *file)
{
	const char *top = ld->scn->path, *dot = strrchr(top, '.');
	int stem = (int)(dot && !strchr(dot, '/') ? dot - top :
			 (long)strlen(top));
	char cal[PATH_MAX];
	struct stat a, b;

	if (!strcmp(file, top))
		return ld->scn->nr_cases > 0;
	if ((size_t)snprintf(cal, sizeof(cal), "%.*s.cal.ini", stem, top) >=
	    sizeof(cal))
		return false;
	return !stat(file, &a) && !stat(cal, &b) && a.st_dev == b.st_dev &&
	       a.st_ino == b.st_ino;
}

/* Whether case c measures a figure under policy p. */
static bool measures(const struct scn_case *c, const struct pp_policy *p)
{
	for (int i = 0; i < c->nr_measured; i++)
		if (c->measured[i].policy == p)
			return true;
	return false;
}

/* Each [fitted] line of this scenario's calibration names one of its
 * cases, and policies it measures: another would never be compared
 * (validate reads the fit cases' measured figures only), and says what
 * no fit predicted.  (A --set that took policies off the case leaves
 * its line unchecked: the file itself is not wrong.) */
static void check_fitted_cases(struct loader *ld)
{
	for (int i = 0; i < ld->scn->nr_fitted; i++) {
		const struct scn_fitted *f = &ld->scn->fitted[i];
		const struct scn_case *c;

		if (!fitted_here(ld, f->file))
			continue;
		c = scn_case_named(ld->scn, f->case_name);
		if (!c && !scn_case_section(ld, f->case_name)) {
			scn_error(ld, f->file, f->line, "[fitted] %s: no "
				 "[case %s] in the scenario it calibrates",
				 f->case_name, f->case_name);
			continue;
		}
		for (int k = 0; c && !c->nr_unrun && k < f->nr; k++)
			if (!measures(c, f->fig[k].policy))
				scn_error(ld, f->file, f->line, "[fitted] %s: "
					 "%s: the case measures no figure "
					 "under it, so no fit predicted one",
					 f->case_name, f->fig[k].policy->name);
	}
}

/* Whether [sweep]'s cases list (empty: every case) names name. */
static bool sweep_runs(const struct scn_sweep *sw, const char *name)
{
	char buf[SCN_TEXT_MAX], *save = NULL;

	if (!sw->cases[0])
		return true;
	snprintf(buf, sizeof(buf), "%s", sw->cases);
	for (char *t = strtok_r(buf, " \t,", &save); t;
	     t = strtok_r(NULL, " \t,", &save))
		if (!strcmp(t, name))
			return true;
	return false;
}

/* Every value of a [sweep]'s vary, set alone in each case the sweep runs
 * as its files have it, is one the sweep's run would take: a bad one is
 * said at the vary line by any command that reads the file (run
 * --dry-run), not by sweep alone.  Values of two keys together are
 * checked when the sweep runs them (their cross product may be large). */
void scn_check_sweep_values(struct loader *ld)
{
	const struct scenario *scn = ld->scn;

	for (int i = 0; i < scn->nr_sweeps && !ld->errors; i++) {
		const struct scn_sweep *sw = &scn->sweeps[i];
		char buf[SCN_TEXT_MAX], *save = NULL;

		snprintf(buf, sizeof(buf), "%s", sw->vary);
		for (char *t = strtok_r(buf, " \t", &save); t;
		     t = strtok_r(NULL, " \t", &save)) {
			char *eq = strchr(t, '='), *v;
			const struct key *k;

			if (!eq)
				continue;	/* sweep says it */
			*eq = '\0';
			k = scn_find_dotted(t);
			if (!k || k->in_scenario)
				continue;	/* the sweep's load says it */
			if (!strcmp(k->section, "machine") &&
			    !strcmp(k->name, "name")) {
				scn_error(ld, sw->file, sw->line, "vary: %s: the "
					 "machine's name is not swept: a "
					 "scenario describes one machine", t);
				continue;
			}
			for (v = eq + 1; v; v = strchr(v, ',') ? strchr(v, ',') + 1 : NULL) {
				char val[SCN_LINE_MAX + 1], why[200];
				size_t n = strcspn(v, ",");

				/* blanks around a value are none of it */
				while (n && (*v == ' ' || *v == '\t'))
					v++, n--;
				while (n && (v[n - 1] == ' ' || v[n - 1] == '\t'))
					n--;
				snprintf(val, sizeof(val), "%.*s", (int)n, v);
				if (!n)
					continue;	/* sweep says it */
				for (int c = 0; c < scn->nr_cases; c++) {
					struct scn_case moved = scn->cases[c];

					if (!sweep_runs(sw, moved.name))
						continue;
					if (scn_set_value(&moved, NULL, k, val,
						      ld->policies, why,
						      sizeof(why)) ||
					    !scn_validate(NULL, &moved, NULL, why,
						      sizeof(why))) {
						scn_error(ld, sw->file, sw->line,
							 "vary: %s=%s: %s "
							 "(case %s)", t, val,
							 why, moved.name);
						break;
					}
				}
			}
		}
	}
}

/* [fitted] CASE = POLICY:VALUE ...: a line replaces an earlier file's of
 * the same case (two in one file: check_duplicates). */
void scn_build_fitted(struct loader *ld)
{
	struct scenario *scn = ld->scn;

	for (int i = 0; i < ld->nr_as; i++) {
		const struct assignment *a = &ld->as[i];
		struct scn_fitted fit = { .file = a->file, .line = a->line };
		const struct scn_fitted *old;
		char why[200];
		long k;

		if (strcmp(a->section, "fitted"))
			continue;
		if (scn_parse_policy_words(a->value, NULL, fit.fig, &fit.nr,
				       ld->policies, why, sizeof(why))) {
			scn_error(ld, a->file, a->line, "%s: %s", a->key, why);
			continue;
		}
		snprintf(fit.case_name, sizeof(fit.case_name), "%s", a->key);
		old = scn_fitted_case(scn, a->key);
		k = old ? old - scn->fitted : scn->nr_fitted;
		if (k == SCN_MAX_CASES) {
			scn_error(ld, a->file, a->line, "[fitted]: more than %d "
				 "cases", SCN_MAX_CASES);
			return;
		}
		scn->fitted[k] = fit;
		scn->nr_fitted += k == scn->nr_fitted;
	}
	check_fitted_cases(ld);
}

struct scn_case *scn_case_named(const struct scenario *scn, const char *name)
{
	for (int i = 0; i < scn->nr_cases; i++)
		if (!strcmp(scn->cases[i].name, name))
			return (struct scn_case *)&scn->cases[i];
	return NULL;
}

bool scn_fitted_on(const struct scenario *scn, const char *name)
{
	char buf[SCN_TEXT_MAX], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", scn->calibrate.cases);
	for (char *t = strtok_r(buf, " \t,", &save); t;
	     t = strtok_r(NULL, " \t,", &save))
		if (!strcmp(t, name))
			return true;
	return false;
}

const struct scn_fitted *scn_fitted_case(const struct scenario *scn,
					 const char *name)
{
	for (int i = 0; i < scn->nr_fitted; i++)
		if (!strcmp(scn->fitted[i].case_name, name))
			return &scn->fitted[i];
	return NULL;
}
