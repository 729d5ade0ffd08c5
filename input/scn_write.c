/*
 * What ppsim writes from the registry: a case as resolved.ini has it,
 * the keys listing (ppsim keys) and the man page's (ppsim-scenario(5)).
 */
#include <string.h>
#include "scn_private.h"

const struct pp_policy *scn_baseline(const struct scn_case *c)
{
	return c->baseline ? c->baseline : c->policies[0];
}

void scn_write_machine(FILE *f, const struct scn_case *c)
{
	const char *section = "";

	for (size_t i = 0; i < scn_registry_len; i++) {
		const struct key *k = &scn_registry[i];
		const char *field = (const char *)c + k->offset;

		if (!scn_whole_machine(k) ||
		    (k->store == KEY_TEXT && !*field))
			continue;
		if (strcmp(section, k->section))
			fprintf(f, "[%s]\n", section = k->section);
		fprintf(f, "%s = ", k->name);
		if (k->store == KEY_TEXT)
			fputs(field, f);
		else
			fputs(scn_word_at(k, scn_word_index(k, field)), f);
		fputc('\n', f);
	}
}

void scn_write_case(FILE *f, const struct scn_case *c)
{
	fprintf(f, "[case %s]\n", c->name);
	for (size_t i = 0; i < scn_registry_len; i++) {
		const struct key *k = &scn_registry[i];
		const void *field = (const char *)c + k->offset;
		bool plain = !strcmp(k->section, "case");

		if (k->in_scenario || scn_whole_machine(k))
			continue;	/* the scenario's: scn_write_machine */
		if (!scn_key_used(c, k)) {
			fprintf(f, "; %s: not used by this case\n", k->name);
			continue;
		}
		if (k->store == KEY_POLICY && !c->baseline) {
			fprintf(f, "; %s: %s (the first policy)\n", k->name,
				scn_baseline(c)->name);
			continue;
		}
		if ((k->store == KEY_MEASURED && !c->nr_measured) ||
		    (k->store == KEY_TEXT && !*(const char *)field))
			continue;	/* an empty list is no value */
		fprintf(f, "%s%s%s = ", plain ? "" : k->section,
			plain ? "" : ".", k->name);
		switch (k->store) {
		case KEY_WORD:
			fputs(scn_word_at(k, scn_word_index(k, field)), f);
			break;
		case KEY_POLICIES:
			for (int p = 0; p < c->nr_policies; p++)
				fprintf(f, "%s%s", p ? " " : "",
					c->policies[p]->name);
			break;
		case KEY_MEASURED:
			for (int p = 0; p < c->nr_measured; p++)
				fprintf(f, "%s%s:%.15g", p ? " " : "",
					c->measured[p].policy->name,
					c->measured[p].value);
			break;
		case KEY_POLICY:
			fputs(c->baseline->name, f);
			break;
		case KEY_TEXT:
			fputs((const char *)field, f);
			break;
		default:
			scn_write_number(f, k, scn_load_number(k, field));
			break;
		}
		fputc('\n', f);
	}
}

void scn_print_keys(FILE *f, bool man)
{
	const char *section = "";

	for (size_t i = 0; i < scn_registry_len; i++) {
		const struct key *k = &scn_registry[i];
		bool is_case = !strcmp(k->section, "case");

		if (strcmp(section, k->section)) {
			section = k->section;
			if (man)
				fprintf(f, ".SS [%s]\n", is_case ?
					"global] and [case NAME" : section);
			else	/* a blank line between sections */
				fprintf(f, "%s[%s]\n", i ? "\n" : "",
					is_case ? "global] and [case NAME"
						: section);
		}
		if (man)
			fprintf(f, ".TP\n.B %s\n%s.\nDefault: %s%s%s.\n",
				k->name, k->help, *k->def ? k->def : "none",
				*k->unit ? "; bare numbers in " : "", k->unit);
		else
			fprintf(f, "  %-14s %-10s %-7s %s\n", k->name,
				*k->def ? k->def : "-", k->unit, k->help);
	}
}
