/*
 * Cases from what was read: the defaults, [global] and the hardware
 * sections, then the case's own section, then --set; and scn_load.
 */
#include <stdlib.h>
#include <string.h>
#include "scn_private.h"

/* A key that names or marks the machine as a whole: its name (every
 * table's and plot's title) and the cores whose costs it runs (the
 * "costs borrowed" marking, said once for the scenario's outputs).  A
 * case may not set it: one case's value would title or mark all. */
bool scn_whole_machine(const struct key *k)
{
	static const char *const keys[] = {
		"machine.name", "cpu.family", "cost.family",
		"cost.fit_family", NULL,
	};
	char dotted[2 * SCN_NAME_MAX];

	snprintf(dotted, sizeof(dotted), "%s.%s", k->section, k->name);
	for (int i = 0; keys[i]; i++)
		if (!strcmp(dotted, keys[i]))
			return true;
	return false;
}

static int apply(struct loader *ld, struct scn_case *c, struct origin *org,
		 const struct assignment *a, bool in_case)
{
	const char *section = in_case || !strcmp(a->section, "global")
			      ? "case" : a->section;
	const char *dot = strchr(a->key, '.');
	const struct key *k;
	char why[200], hint[80], hw[SCN_NAME_MAX];
	const char *ksec = section, *kname = a->key;	/* as written */

	if (ld && ld->errors >= DATADIR_MAX_ERRORS)
		return -1;	/* nothing more is said: no work for it */

	/* a case may override a hardware key: nic.rx_ring = 512 */
	if (dot && !strcmp(section, "case")) {
		snprintf(hw, sizeof(hw), "%.*s", (int)(dot - a->key), a->key);
		ksec = hw;
		kname = dot + 1;
		k = scn_find_key(hw, dot + 1);
		if (k && k->in_scenario) {
			scn_error(ld, a->file, a->line, "'%s' belongs to the "
				 "whole scenario: set it in [%s]", a->key,
				 k->section);
			return -1;
		}
		if (k && strcmp(hw, "case")) {
			section = k->section;
			goto found;
		}
	}
	k = scn_find_key(section, a->key);
found:
	if (k && in_case && scn_whole_machine(k)) {
		scn_error(ld, a->file, a->line, "%s.%s in [%s]: a scenario "
			 "describes one machine, every case's; set it in "
			 "[%s] (or --set %s.%s=... for all cases)", k->section,
			 k->name, a->section, k->section, k->section,
			 k->name);
		return -1;
	}
	if (!k) {
		const struct key *elsewhere = NULL;
		const char *now = scn_retired(ksec, kname);

		for (size_t i = 0; i < scn_registry_len && !elsewhere; i++)
			if (!strcmp(scn_registry[i].name, a->key))
				elsewhere = &scn_registry[i];
		if (elsewhere && !strcmp(elsewhere->section, "case")) {
			scn_error(ld, a->file, a->line, "'%s' belongs in "
				 "[global] or a [case]", a->key);
		} else if (elsewhere) {
			scn_error(ld, a->file, a->line, "'%s' belongs in "
				 "[%s]", a->key, elsewhere->section);
		} else if (now) {
			scn_error(ld, a->file, a->line, "'%s' is gone: it became "
				 "%s", a->key, now);
		} else {
			scn_suggest(ksec, kname, hint, sizeof(hint));
			scn_error(ld, a->file, a->line, "unknown key '%s'%s%s%s",
				 a->key, *hint ? " (did you mean " : "", hint,
				 *hint ? "?)" : "");
		}
		return -1;
	}
	if (scn_set_value(c, &ld->scn->calibrate, k, a->value, ld->policies, why,
		      sizeof(why))) {
		scn_error(ld, a->file, a->line, "%s: %s", a->key, why);
		return -1;
	}
	/* a case's own line against the case's earlier line, a [global]
	 * one against the scenario's: a case's line wins over [global] */
	if (ld && in_case == org[k - scn_registry].in_case)
		scn_check_include_over(ld, a, org[k - scn_registry].as);
	org[k - scn_registry] = (struct origin){ a->file, a->line, in_case,
						 a->depth ? a : NULL };
	ld->scn->written[k - scn_registry] = true;
	if (k->in_scenario && !strcmp(k->name, "free")) {
		ld->scn->calibrate.free_file = a->file;
		ld->scn->calibrate.free_line = a->line;
	}
	return 0;
}

static void check_duplicates(struct loader *ld)
{
	for (int i = 0; i < ld->nr_as; i++) {
		for (int j = 0; j < i; j++) {
			const struct assignment *a = &ld->as[i], *b = &ld->as[j];

			if (a->file != b->file ||
			    strcmp(a->section, b->section) ||
			    strcmp(a->key, b->key))
				continue;
			/* two [case a] would merge into one case unseen */
			if (!*a->key)
				scn_error(ld, a->file, a->line, "[%s] a second "
					 "time (first at line %d): one section "
					 "a %s", a->section, b->line,
					 *a->section == 'c' ? "case" : "sweep");
			else
				scn_error(ld, a->file, a->line, "duplicate key "
					 "'%s' in [%s] (first set at line %d)",
					 a->key, a->section, b->line);
			break;
		}
	}
}

bool scn_case_section(const struct loader *ld, const char *name)
{
	for (int i = 0; i < ld->nr_as; i++)
		if (!strncmp(ld->as[i].section, "case ", 5) &&
		    !strcmp(ld->as[i].section + 5, name))
			return true;
	return false;
}

/* [calibrate] cases and a [sweep]'s cases name cases of the scenario: a
 * misspelt one would be left out of the fit, or the sweep, unseen.  One
 * list, said at file:line (a file's line, or "--set:N"). */
static void check_case_list(struct loader *ld, const char *file, int line,
			    const char *value)
{
	char buf[SCN_LINE_MAX + 1], *save = NULL;
	char *seen[SCN_LINE_MAX / 2 + 1];
	int n = 0;

	snprintf(buf, sizeof(buf), "%s", value);
	for (char *t = strtok_r(buf, " \t,", &save); t;
	     t = strtok_r(NULL, " \t,", &save)) {
		bool twice = false;

		if (!scn_case_section(ld, t))
			scn_error(ld, file, line, "cases: no [case %s] in the "
				 "scenario", t);
		for (int j = 0; j < n && !twice; j++)
			twice = !strcmp(seen[j], t);
		if (twice)
			scn_error(ld, file, line, "cases: %s named twice", t);
		/* a name and a separator each: the array holds them */
		seen[n++] = t;
	}
}

static void check_case_lists(struct loader *ld)
{
	for (int i = 0; i < ld->nr_as; i++) {
		const struct assignment *a = &ld->as[i];

		if (!strcmp(a->key, "cases") &&
		    (!strcmp(a->section, "calibrate") ||
		     !strncmp(a->section, "sweep ", 6)))
			check_case_list(ld, a->file, a->line, a->value);
	}
}

/* --set policies=... (or --policy) on a file with measured figures: a
 * figure of a policy no longer run is left out (counted in nr_unrun, said
 * by the command), not refused, so a patch's before/after runs on a
 * measured scenario.  The file's own policies and figures must still
 * agree. */
static void drop_unrun_measured(struct scn_case *c, const struct origin *org)
{
	const struct origin *o = &org[scn_key_index("case.policies")];
	int kept = 0;

	if (!o->file || (strcmp(o->file, "--set") &&
			 strcmp(o->file, "--policy")))
		return;
	for (int i = 0; i < c->nr_measured; i++) {
		bool run = false;

		for (int p = 0; p < c->nr_policies; p++)
			run |= c->policies[p] == c->measured[i].policy;
		if (run)
			c->measured[kept++] = c->measured[i];
	}
	c->nr_unrun += c->nr_measured - kept;
	c->nr_measured = kept;
}

/* The overrides for case c, all of them; or (machine_only: a case the
 * command does not run) those of the keys that describe the machine as a
 * whole, which every case shares (scn_whole_machine): what the outputs
 * say of the machine, from any case, is then what ran. */
static bool apply_overrides(struct loader *ld, struct scn_case *c,
			    struct origin *org, const struct scn_override *set,
			    int nr_set, bool machine_only)
{
	bool ok = true;
	int nr_said_set = 0;	/* "--set:N": the N-th --set, not --duration */

	for (int i = 0; i < nr_set; i++) {
		const struct key *wk = scn_find_dotted(set[i].key);

		if (machine_only && !(wk && scn_whole_machine(wk))) {
			nr_said_set += !set[i].file;	/* numbered still */
			continue;
		}
		struct assignment a = {
			.file = set[i].file ? set[i].file : "--set",
			.line = set[i].file ? set[i].line : ++nr_said_set,
		};
		const char *dot = strchr(set[i].key, '.'), *ctl;

		if (dot) {
			snprintf(a.section, sizeof(a.section), "%.*s",
				 (int)(dot - set[i].key), set[i].key);
			snprintf(a.key, sizeof(a.key), "%s", dot + 1);
		} else {
			snprintf(a.section, sizeof(a.section), "global");
			snprintf(a.key, sizeof(a.key), "%s", set[i].key);
		}
		snprintf(a.value, sizeof(a.value), "%s", set[i].value);
		/* an override is written back into the outputs' provenance
		 * and resolved.ini: it must make one line a file may hold */
		if (strlen(set[i].key) + 3 + strlen(set[i].value) >
		    SCN_LINE_MAX) {
			scn_error(ld, a.file, a.line, "%s: longer than a "
				 "scenario line (%d characters)", set[i].key,
				 SCN_LINE_MAX);
			ok = false;
			continue;
		}
		if (*(ctl = scn_control_char(set[i].value))) {
			scn_error(ld, a.file, a.line, "%s: control character "
				 "0x%02x", set[i].key, *ctl);
			ok = false;
			continue;
		}
		if (!scn_section_known(a.section)) {
			scn_error(ld, a.file, a.line, "%s: unknown section '%s'",
				 set[i].key, a.section);
			ok = false;
			continue;
		}
		if (!strcmp(a.section, "fitted")) {
			scn_error(ld, a.file, a.line, "%s: [fitted] is what a "
				 "calibration's fit predicted, written by ppsim "
				 "calibrate: not a key to set", set[i].key);
			ok = false;
			continue;
		}
		/* as a file's line is: every name a case, none twice */
		if (!strcmp(a.section, "calibrate") && !strcmp(a.key, "cases"))
			check_case_list(ld, a.file, a.line, a.value);
		ok &= !apply(ld, c, org, &a, false);
	}
	return ok;
}

/* Every key's default; a default the key refuses (a slip in scn_registry[],
 * which tests/cli.sh's keys would show) is said and counted as an
 * error of the file being read. */
static void set_defaults(struct loader *ld, struct scn_case *c,
			 struct scn_calibrate *cal)
{
	char why[200];

	memset(c, 0, sizeof(*c));
	c->sim.rxq.nic = nic_models[0];	/* no key names the NIC yet */
	if (scn_registry_left_out)
		scn_error(ld, ld->file, 0, "ppsim's key table: %zu keys past "
			 "its %d (SCN_MAX_KEYS)", scn_registry_left_out, SCN_MAX_KEYS);
	for (size_t i = 0; i < scn_registry_len; i++)
		if (*scn_registry[i].def &&
		    scn_set_value(c, cal, &scn_registry[i], scn_registry[i].def,
			      ld->policies, why, sizeof(why)))
			scn_error(ld, ld->file, 0, "ppsim's default for %s.%s: "
				 "%s", scn_registry[i].section, scn_registry[i].name,
				 why);
}

/* Does the command run case name (--case)? */
static bool ld_wants(const struct loader *ld, const char *name)
{
	for (int i = 0; i < ld->nr_only; i++)
		if (!strcmp(ld->only[i], name))
			return true;
	return !ld->nr_only;
}

/* A key [calibrate] free fits, set in the own section of a case it is
 * fitted on: the fit would move it there, but the calibration it writes
 * sets the key for every case, and the case's own line overrides that:
 * the fit and the scenario it writes for would differ, and no refit
 * would mend it.  (Another case may set it: a what-if beside the fit.) */
static void check_free_in_case(struct loader *ld, const struct scn_case *c,
			       const struct origin *org)
{
	char buf[SCN_TEXT_MAX], *save = NULL;

	if (!scn_fitted_on(ld->scn, c->name))
		return;
	snprintf(buf, sizeof(buf), "%s", ld->scn->calibrate.free);
	for (char *t = strtok_r(buf, " \t,", &save); t;
	     t = strtok_r(NULL, " \t,", &save)) {
		char section[32], *dot = strchr(t, '.'), *colon = strchr(t, ':');
		const struct key *k;
		const struct origin *o;

		if (!dot || !colon || dot > colon || dot - t >= 32)
			continue;	/* the fit says what is wrong */
		snprintf(section, sizeof(section), "%.*s", (int)(dot - t), t);
		*colon = '\0';
		k = scn_find_key(section, dot + 1);
		o = k ? &org[k - scn_registry] : NULL;
		if (o && o->in_case)
			scn_error(ld, o->file, o->line, "%s: set in [case %s], "
				 "which [calibrate] fits it on: the "
				 "calibration sets it for every case, and "
				 "this line would override it", t, c->name);
	}
}

/* The fit_family the file sets (enum cpu_family + 1), 0 if none. */
static int file_fit_family(const struct loader *ld, const char *file)
{
	for (int i = ld->nr_as - 1; i >= 0; i--) {
		const struct assignment *a = &ld->as[i];

		if (strcmp(a->file, file) || strcmp(a->section, "cost") ||
		    strcmp(a->key, "fit_family"))
			continue;
		for (int w = 1; cpu_fit_family_words[w]; w++)
			if (!strcmp(a->value, cpu_fit_family_words[w]))
				return w;
		return 0;
	}
	return 0;
}

/* The core each driver cost of c was fitted on (cpu_config.fit_of), by
 * the file its value came from: the fit_family of that file (a .cal.ini
 * fits some of them, and says on which core); a hardware profile's
 * value is a prior, fitted on nothing; a file that says nothing (a
 * scenario's own [cost], --set) is taken as this machine's, as
 * fit_family's "any" is. */
static void driver_fits(const struct loader *ld, struct scn_case *c,
			const struct origin *org)
{
	for (int d = 0; d < CPU_NR_DRIVER_COSTS; d++) {
		const struct key *k = scn_find_key("cost",
						   scn_driver_costs[d] + 5);
		const char *file = org[k - scn_registry].file;

		c->sim.cpu.fit_of[d] = !file ? 0 :
				       scn_profile_part(file) ? CPU_FIT_PRIOR :
				       file_fit_family(ld, file);
	}
}

static void build_cases(struct loader *ld, const struct scn_override *set,
			int nr_set)
{
	struct scenario *scn = ld->scn;
	struct origin base_org[SCN_MAX_KEYS] = { { 0 } };
	struct scn_case base;

	int base_errors = ld->errors;

	set_defaults(ld, &base, &scn->calibrate);
	for (int i = 0; i < ld->nr_as; i++)
		if (strncmp(ld->as[i].section, "case ", 5) &&
		    strncmp(ld->as[i].section, "sweep ", 6) &&
		    strcmp(ld->as[i].section, "fitted"))
			apply(ld, &base, base_org, &ld->as[i], false);
	for (size_t k = 0; k < scn_registry_len; k++)
		if (base_org[k].file && base_org[k].line > 0)
			scn->source[k] = (struct scn_source){
				base_org[k].file, base_org[k].line };
	base_errors = ld->errors - base_errors;
	for (int i = 0; i < ld->nr_as; i++) {
		const struct assignment *a = &ld->as[i];
		struct origin org[SCN_MAX_KEYS];
		struct scn_case *c;
		int errors = ld->errors;

		if (strncmp(a->section, "case ", 5) ||
		    scn_case_named(scn, a->section + 5))
			continue;
		if (scn->nr_cases == SCN_MAX_CASES) {
			scn_error(ld, a->file, a->line, "more than %d cases",
				 SCN_MAX_CASES);
			return;
		}
		c = &scn->cases[scn->nr_cases++];
		*c = base;
		memcpy(org, base_org, sizeof(org));
		snprintf(c->name, sizeof(c->name), "%s", a->section + 5);
		c->file = a->file;
		c->line = a->line;
		for (int j = i; j < ld->nr_as; j++)
			if (!strcmp(ld->as[j].section, a->section) &&
			    *ld->as[j].key)
				apply(ld, c, org, &ld->as[j], true);
		check_free_in_case(ld, c, org);
		if (!apply_overrides(ld, c, org, set, nr_set,
				     !ld_wants(ld, c->name)))
			return;
		/* a key refused keeps its default: checked against the others
		 * it would give errors of values nobody wrote */
		scn_fit_sample(c, org);
		drop_unrun_measured(c, org);
		driver_fits(ld, c, org);
		if (!base_errors && ld->errors == errors)
			scn_validate(ld, c, org, NULL, 0);
	}
}

struct scenario *scn_load(const char *path, const struct scn_override *set,
			  int nr_set, const struct pp_policy *const *policies)
{
	return scn_load_cases(path, set, nr_set, policies, NULL, 0);
}

static struct scenario *load(const char *path, const struct scn_override *set,
			     int nr_set, const struct pp_policy *const *policies,
			     const char *const *only, int nr_only,
			     bool part_ok)
{
	struct loader ld = { .policies = policies, .only = only,
			     .nr_only = nr_only };

	ld.scn = calloc(1, sizeof(*ld.scn));
	if (!ld.scn)
		return NULL;
	ld.scn->path = strdup(path);
	if (!ld.scn->path) {
		free(ld.scn);
		return NULL;
	}
	if (!scn_load_file(&ld, path, path, NULL, 0)) {
		check_duplicates(&ld);
		check_case_lists(&ld);
		build_cases(&ld, set, nr_set);
		scn_build_sweeps(&ld);
		scn_check_sweep_values(&ld);
		scn_build_fitted(&ld);
		if (!ld.scn->nr_cases && !ld.errors && !part_ok)
			scn_error(&ld, path, ld.line ? ld.line : 1,
				 "no [case NAME] section: nothing to run");
	}
	free(ld.as);
	if (ld.errors) {
		scn_free(ld.scn);
		return NULL;
	}
	return ld.scn;
}

struct scenario *scn_load_cases(const char *path,
				const struct scn_override *set, int nr_set,
				const struct pp_policy *const *policies,
				const char *const *only, int nr_only)
{
	return load(path, set, nr_set, policies, only, nr_only, false);
}

struct scenario *scn_load_part(const char *path,
			       const struct scn_override *set, int nr_set,
			       const struct pp_policy *const *policies,
			       const char *const *only, int nr_only)
{
	return load(path, set, nr_set, policies, only, nr_only, true);
}

void scn_free(struct scenario *scn)
{
	if (!scn)
		return;
	for (int i = 0; i < scn->nr_files; i++)
		free(scn->files[i]);
	free(scn->files);
	free(scn->path);
	free(scn);
}
