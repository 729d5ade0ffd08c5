/* What the commands ask of the scenarios they loaded: the cases and
 * policies the command line lets through, the notes a run says of a
 * scenario, the machine its plots are titled with, the rows of its
 * measured figures. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "cmd.h"

static bool listed(const char *const *names, int nr, const char *name)
{
	for (int i = 0; i < nr; i++)
		if (!strcmp(names[i], name))
			return true;
	return !nr;
}

bool cmd_wants_case(const struct cmd_opts *o, const char *name)
{
	return listed(o->cases, o->nr_cases, name);
}

bool cmd_wants_policy(const struct cmd_opts *o, const char *name)
{
	return listed(o->policies, o->nr_policies, name);
}

bool cmd_policy_key(const char *key)
{
	if (!strncmp(key, "case.", 5) || !strncmp(key, "global.", 7))
		key = strchr(key, '.') + 1;
	return !strcmp(key, "policies") || !strcmp(key, "baseline");
}

int cmd_check_names(const struct cmd_opts *o, struct scenario *const *scn,
		    int nr)
{
	int bad = 0;

	for (int i = 0; i < o->nr_cases; i++) {
		bool found = false;

		for (int f = 0; f < nr && !found; f++)
			found = scn_case_named(scn[f], o->cases[i]);
		if (!found) {
			fprintf(stderr, "--case %s: no such case in %s%s\n",
				o->cases[i], nr > 1 ? "any of the files, " : "",
				nr > 1 ? "" : scn[0]->path);
			bad++;
		}
	}
	for (int i = 0; i < o->nr_policies; i++) {
		if (!pp_policy_find(cmd_policies, o->policies[i])) {
			fprintf(stderr, "--policy %s: no such policy (ppsim "
				"trace --help lists them)\n", o->policies[i]);
			bad++;
		}
	}
	return bad;
}

void cmd_warn_scenario(const struct scenario *scn, const char *file)
{
	const char *profile = scn_uncalibrated_profile(scn);
	int unrun = 0;

	if (profile)
		fprintf(stderr, "%s: warning: includes the hardware profile "
			"%s but no calibration (.cal.ini): its per-packet "
			"costs are uncalibrated priors; ppsim calibrate fits "
			"them\n", file, profile);
	for (int i = 0; i < scn->nr_cases; i++)
		unrun += scn->cases[i].nr_unrun;
	if (unrun)
		fprintf(stderr, "%s: note: %d measured figure%s of policies "
			"not run (--policy, --set policies=) left out\n", file,
			unrun, unrun == 1 ? "" : "s");
}

/* Whether the scenario, a case or --set changed a figure of the machine
 * its profile describes (a user's own machine, described over a shipped
 * profile): a key of [cpu], [cache], [mem] (but pages, the model's room),
 * [qpi] or [pcie] set elsewhere than in a hw/ file. */
static bool machine_changed(const struct scenario *scn)
{
	static const char *const machine[] = { "cpu.", "cache.", "mem.",
					       "qpi.", "pcie." };

	for (int k = 0; k < scn_nr_keys(); k++) {
		const char *from = scn->source[k].file;
		char name[64];
		bool ours = false;

		scn_key_name(k, name, sizeof(name));
		for (size_t m = 0; m < sizeof(machine) / sizeof(*machine); m++)
			ours |= !strncmp(name, machine[m], strlen(machine[m]));
		if (ours && strcmp(name, "mem.pages") && scn->written[k] &&
		    !(from && scn_profile_part(from)))
			return true;
	}
	return false;
}

/* The machine's [machine] name, which titles the tables too, unless a
 * profile gave it and the scenario changed that machine; else the
 * profile's name is the file's, hw/NAME.ini: the first include
 * under a hw/ directory; NULL when there is none, or the scenario changed
 * the machine it describes (the plots then say its cores and clock). */
/* Whether the scenario or --set, not a hw/ profile, named the machine:
 * the user's own name, which holds whatever else they changed. */
static bool named_here(const struct scenario *scn)
{
	for (int k = 0; k < scn_nr_keys(); k++) {
		const char *from = scn->source[k].file;
		char name[64];

		scn_key_name(k, name, sizeof(name));
		if (!strcmp(name, "machine.name"))
			return scn->written[k] && !(from &&
						    scn_profile_part(from));
	}
	return false;
}

const char *cmd_machine(const struct scenario *scn, char *buf, size_t len)
{
	/* a profile's name, not of a machine the scenario changed */
	if (scn->nr_cases && scn->cases[0].machine[0] &&
	    (named_here(scn) || !machine_changed(scn))) {
		snprintf(buf, len, "%s", scn->cases[0].machine);
		return buf;
	}
	if (machine_changed(scn))
		return NULL;
	for (int i = 0; i < scn->nr_files; i++) {
		const char *hw = scn_profile_part(scn->files[i]);
		size_t n;

		if (!hw)
			continue;
		n = strcspn(hw + 3, ".");
		snprintf(buf, len, "%.*s", (int)n, hw + 3);
		return buf;
	}
	return NULL;
}

/* Every measured (case, policy), or only those of the fit cases. */
int cmd_measured_rows(struct scenario *scn, struct rep_row *rows,
			 bool fit_only)
{
	int n = 0;

	for (int i = 0; i < scn->nr_cases; i++) {
		struct scn_case *c = &scn->cases[i];

		if (fit_only && !scn_fitted_on(scn, c->name))
			continue;
		for (int p = 0; p < c->nr_policies; p++) {
			double m = rep_measured(c, c->policies[p]);

			if (!isnan(m))
				rows[n++] = cmd_row(c, c->policies[p], m);
		}
	}
	return n;
}

