/*
 * Reading a scenario's files with inih: every line checked and its
 * assignments recorded, sections, includes and the bounds of a read.
 */
#include <errno.h>
#include <ini.h>
#include <libgen.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "scn_private.h"

#define SCN_READ_MAX	1024	/* a line with its comment, before cutting */
/* A scenario's bounds, includes of includes counted (ppsim-scenario(5)):
 * their bytes together (the files read: SCN_MAX_FILES), and the keys they
 * set.  The corpus's largest reads 3 files and sets under 400 keys. */
#define SCN_MAX_BYTES	(64L << 20)
#define SCN_MAX_SETTINGS 65536
/* characters of a section name libinih keeps (its MAX_SECTION, 50, with
 * the NUL) */
#define SCN_SECTION_MAX	49

static const char *const hw_sections[] = {
	"machine", "cpu", "cache", "mem", "qpi", "pcie", "nic", "driver", "cost",
	"model", "calibrate", NULL,
};

/* Says an error, up to DATADIR_MAX_ERRORS of them: past those the file
 * is something else than a scenario with mistakes. */
void scn_error(struct loader *ld, const char *file, int line,
	       const char *fmt, ...)
{
	unsigned long hash = 14695981039346656037UL;	/* FNV-1a */
	char text[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	for (const char *p = file; *p; p++)
		hash = (hash ^ (unsigned char)*p) * 1099511628211UL;
	hash = (hash ^ (unsigned long)line) * 1099511628211UL;
	for (const char *p = text; *p; p++)
		hash = (hash ^ (unsigned char)*p) * 1099511628211UL;
	for (int i = 0; i < ld->nr_said; i++)
		if (ld->said[i] == hash)
			return;	/* counted when it was said */
	if (ld->nr_said < DATADIR_MAX_ERRORS)
		ld->said[ld->nr_said++] = hash;
	if (ld->errors++ == DATADIR_MAX_ERRORS)
		datadir_error(file, line, "too many errors: no more said");
	if (ld->errors > DATADIR_MAX_ERRORS)
		return;
	datadir_error(file, line, "%s", text);
}

static char *trim(char *s)
{
	char *end;

	while (*s == ' ' || *s == '\t')
		s++;
	end = s + strlen(s);
	while (end > s && strchr(" \t\r\n", end[-1]))
		*--end = '\0';
	return s;
}

bool scn_section_known(const char *section)
{
	for (int i = 0; hw_sections[i]; i++)
		if (!strcmp(section, hw_sections[i]))
			return true;
	return !strcmp(section, "global") || !strcmp(section, "fitted") ||
	       (!strncmp(section, "case ", 5) && section[5]) ||
	       (!strncmp(section, "sweep ", 6) && section[6]);
}

/* Room for one more assignment; NULL, said and counted as an error, with
 * nothing more read, when there is no memory for it. */
static struct assignment *new_assignment(struct loader *ld)
{
	if (ld->nr_as == ld->cap_as) {
		int cap = ld->cap_as ? 2 * ld->cap_as : 128;
		struct assignment *as = realloc(ld->as, (size_t)cap *
						 sizeof(*ld->as));

		if (!as) {
			scn_error(ld, ld->file, ld->line, "out of memory");
			ld->stop = true;	/* read no more */
			return NULL;
		}
		ld->as = as;
		ld->cap_as = cap;
	}
	ld->as[ld->nr_as] = (struct assignment){ .file = ld->file,
						 .line = ld->line,
						 .depth = (uint8_t)ld->depth };
	memcpy(ld->as[ld->nr_as].chain, ld->chain, sizeof(ld->chain));
	return &ld->as[ld->nr_as++];
}

/* A section header: an unknown one is an error at its line. */
static void section_seen(struct loader *ld, char *header)
{
	char buf[SCN_NAME_MAX + 8], *name;
	struct assignment *a;

	if (strlen(header) - 2 > SCN_SECTION_MAX) {
		/* inih would cut it: a case of a longer name would split
		 * into two, or lose its end */
		scn_error(ld, ld->file, ld->line, "section name longer than %d "
			 "characters ([case NAME]: %d for NAME)",
			 SCN_SECTION_MAX, SCN_SECTION_MAX - 5);
		return;
	}
	snprintf(buf, sizeof(buf), "%.*s", (int)strlen(header) - 2,
		 header + 1);
	name = trim(buf);
	if (!strcmp(name, "case") || !strcmp(name, "sweep")) {
		scn_error(ld, ld->file, ld->line, "[%s] without a name: "
			 "expected [%s NAME]", name, name);
		return;
	}
	/* a name goes into every output's rows, a CSV's too, which a tab
	 * would make one that no ppsim reads back */
	if (strchr(name, '\t')) {
		scn_error(ld, ld->file, ld->line, "a tab in the section name "
			 "[%s]: a name is words and blanks", name);
		return;
	}
	if (!scn_section_known(name)) {
		const char *near = scn_edit_distance(name, "global", 3) <= 2 ? "global"
				   : scn_edit_distance(name, "fitted", 3) <= 2 ?
				   "fitted" : NULL;

		for (int i = 0; hw_sections[i] && !near; i++)
			if (scn_edit_distance(name, hw_sections[i], 3) <= 2)
				near = hw_sections[i];
		if (near)
			scn_error(ld, ld->file, ld->line, "unknown section "
				 "[%s] (did you mean [%s]?)", name, near);
		else
			scn_error(ld, ld->file, ld->line, "unknown section "
				 "[%s]: expected [global], [case NAME] or a "
				 "hardware section ([cpu], [cache], [mem], "
				 "[qpi], [pcie], [nic], [driver], [cost], "
				 "[model])", name);
		return;
	}
	/* a case's or a sweep's header is kept: it makes the case (one
	 * that sets nothing runs with the defaults), and a second header of
	 * the same name in the file is an error (check_duplicates) */
	if ((!strncmp(name, "case ", 5) || !strncmp(name, "sweep ", 6)) &&
	    (a = new_assignment(ld)))
		snprintf(a->section, SCN_NAME_MAX + 8, "%s", name);
}

/* The first control character of text (tab aside), or its end: such a
 * character would reach a terminal, or split an output's line. */
const char *scn_control_char(const char *text)
{
	while (*text && !((*text > 0 && *text < ' ' && *text != '\t') ||
			  *text == 0x7f))
		text++;
	return text;
}

/* A comment begun on a [machine] name's line (name = Rack #3 box): it
 * would cut the name short unseen, every title then saying 'Rack'.  A
 * name cannot hold '#' or ';' (inih's reading, and ours: a comment runs
 * from either to the end of the line), so such a line is refused, a
 * comment after a name included: it goes on a line of its own. */
static void name_cut(struct loader *ld, char *text, char *cut)
{
	char line[SCN_READ_MAX], *eq, *key;

	snprintf(line, sizeof(line), "%.*s", (int)(cut - text), text);
	eq = strchr(line, '=');
	if (!eq)
		return;
	*eq = '\0';
	key = trim(line);
	if (strcmp(key, "machine.name") && (strcmp(key, "name") ||
					    !ld->in_machine))
		return;
	scn_error(ld, ld->file, ld->line, "%s: '%c' begins a comment, which "
		 "cuts the name to '%s': a machine's name cannot hold '#' or "
		 "';' (a comment goes on a line of its own)", key, *cut,
		 trim(eq + 1));
}

/*
 * inih's reader: hands inih one line at a time, after checking it, so that
 * every bad line is reported with its number (inih reports only the first,
 * with no reason), over-long lines are refused (inih would cut them and
 * shift every later line number), and indentation is not read as a
 * continuation line.  Comments (# or ; to the end of the line) go here too.
 */
static char *ini_reader_checked(char *str, int num, void *stream)
{
	struct loader *ld = stream;
	char text[SCN_READ_MAX];
	int problem;
	long len = datadir_getline(ld->f, text, sizeof(text), &problem);
	const char *ctl;
	char *s;

	if (len < 0 || ld->stop)
		return NULL;
	if (ld->errors >= DATADIR_MAX_ERRORS) {
		/* error_at says "too many errors" for this one */
		scn_error(ld, ld->file, ld->line + 1, "not read further");
		return NULL;
	}
	ld->line++;
	snprintf(str, num, "\n");
	if (problem == LINE_NUL) {
		scn_error(ld, ld->file, ld->line, "NUL byte: not a text file");
		return str;
	}
	s = text + strspn(text, " \t");
	/* "[case #x]": the '#' begins a comment, and what is left
	 * would be said as a missing ']' */
	if (*s == '[' && s[strcspn(s, "#;")] && strchr(s, ']') &&
	    strchr(s, ']') > s + strcspn(s, "#;")) {
		scn_error(ld, ld->file, ld->line, "'%c' in a section name: "
			 "'#' and ';' begin a comment", s[strcspn(s, "#;")]);
		ld->bad_header = true;
		return str;
	}
	s = text + strcspn(text, "#;");
	if (*s)
		name_cut(ld, text, s);
	*s = '\0';
	s = trim(text);
	if (!*s && problem == LINE_OK)
		return str;
	if (problem == LINE_TOO_LONG || strlen(s) > SCN_LINE_MAX ||
	    (int)strlen(s) + 2 > num) {
		scn_error(ld, ld->file, ld->line,
			 "line longer than %d characters", SCN_LINE_MAX);
		return str;
	}
	if (*(ctl = scn_control_char(s))) {
		scn_error(ld, ld->file, ld->line, "control character 0x%02x",
			 *ctl);
		return str;
	}
	if (*s == '[' && strchr(s, ']') &&
	    strchr(s, ']') != s + strlen(s) - 1) {
		scn_error(ld, ld->file, ld->line, "']' inside a section name");
		ld->bad_header = true;
		return str;
	}
	if (*s == '[' ? s[strlen(s) - 1] != ']' : !strchr(s, '=') ||
	    *s == '=') {
		scn_error(ld, ld->file, ld->line, *s == '[' ?
			 "expected ']' at the end of a section name" :
			 "expected KEY = VALUE, [SECTION] or a comment");
		ld->bad_header |= *s == '[';
		return str;
	}
	if (*s == '[') {
		char inner[SCN_NAME_MAX + 8];

		ld->bad_header = false;
		snprintf(inner, sizeof(inner), "%.*s", (int)strlen(s) - 2,
			 s + 1);
		ld->in_machine = !strcmp(trim(inner), "machine");
		section_seen(ld, s);
	}
	snprintf(str, num, "%s\n", s);
	return str;
}

/*
 * include = FILE: relative to the including file's directory, else to the
 * data directory's scenarios/ (where the shipped profiles and calibrations
 * are: a copy of a shipped scenario still finds hw/...), else to the data
 * directory, else to the data directory's scenarios/hw/ (a copy of a
 * shipped profile, wherever it is, still finds the cost table or the
 * profile it includes: cost-broadwell.ini, xeon-8380-2s.ini).  Writes the
 * first that exists into path, or the first.
 */
static void include_path(const char *file, const char *value, char *path,
			 size_t len)
{
	char dir[PATH_MAX], alt[PATH_MAX];
	struct stat st;

	snprintf(dir, sizeof(dir), "%s", file);
	if (value[0] == '/' || !strchr(file, '/'))
		snprintf(path, len, "%s", value);
	else
		snprintf(path, len, "%s/%s", dirname(dir), value);
	/* only a name that names nothing falls back (a dangling link, a
	 * file not readable, a loop: that file's error, said) */
	if (value[0] == '/' || !datadir_names_nothing(path))
		return;
	snprintf(alt, sizeof(alt), "%s/scenarios/%s", datadir_path(), value);
	if (stat(alt, &st))
		snprintf(alt, sizeof(alt), "%s/%s", datadir_path(), value);
	if (stat(alt, &st))
		snprintf(alt, sizeof(alt), "%s/scenarios/hw/%s", datadir_path(),
			 value);
	if (!stat(alt, &st))
		snprintf(path, len, "%s", alt);
}

static void include_file(struct loader *ld, const char *value)
{
	char path[PATH_MAX];
	const char *file = ld->file;
	int line = ld->line;
	FILE *f = ld->f;
	bool in_machine = ld->in_machine;

	include_path(file, value, path, sizeof(path));
	scn_load_file(ld, path, value, file, line);
	ld->file = file;
	ld->line = line;
	ld->f = f;
	ld->in_machine = in_machine;
}

static int ini_handler_record(void *user, const char *section,
			      const char *name, const char *value)
{
	struct loader *ld = user;
	struct assignment *a;

	if (ld->bad_header)
		return 1;	/* under a header said bad: not its section's */
	if (!*section) {
		scn_error(ld, ld->file, ld->line, "%s: set before any [section]",
			 name);
		return 1;
	}
	if (!scn_section_known(section))
		return 1;	/* reported at its header */
	if (!strcmp(name, "include")) {
		/* what a file holds is every case's (its [global], its
		 * hardware): read inside a [case] it would look like the
		 * case's own and change the machine of them all */
		if (!strncmp(section, "case ", 5) ||
		    !strncmp(section, "sweep ", 6))
			scn_error(ld, ld->file, ld->line, "include in [%s]: "
				 "an included file's settings are every "
				 "case's; include it in [global] (a case sets "
				 "its own keys, nic.rx_ring = 512)", section);
		else if (!*value)
			scn_error(ld, ld->file, ld->line, "include: empty value "
				 "(a file to read, relative to this one)");
		else
			include_file(ld, value);
		return 1;
	}
	if (!*value) {
		scn_error(ld, ld->file, ld->line, "%s: empty value", name);
		return 1;
	}
	if (strlen(name) >= sizeof(a->key)) {
		/* cut, it would name another key, or another case */
		scn_error(ld, ld->file, ld->line, "key longer than %d "
			 "characters", (int)sizeof(a->key) - 1);
		return 1;
	}
	if (ld->nr_as == SCN_MAX_SETTINGS) {
		scn_error(ld, ld->file, ld->line, "more than %d keys set: not "
			 "a scenario ppsim reads", SCN_MAX_SETTINGS);
		ld->stop = true;	/* read no more */
		return 1;
	}
	a = new_assignment(ld);
	if (!a)
		return 1;
	snprintf(a->section, sizeof(a->section), "%s", section);
	snprintf(a->key, sizeof(a->key), "%s", name);
	snprintf(a->value, sizeof(a->value), "%s", value);
	return 1;
}

/*
 * An include's key over a line of a file that includes it, above the
 * include (a.ini sets cpu.freq, then includes a profile that sets it):
 * the included value would win, and nothing would say so.  Refused at
 * the include.  Two includes in turn are layers, the later one winning (a
 * calibration over its profile's priors), as is a line after its include.
 */
void scn_check_include_over(struct loader *ld, const struct assignment *a,
			    const struct assignment *was)
{
	const struct include_site *s;
	bool global;

	if (!a->depth || !was || was->depth >= a->depth ||
	    memcmp(a->chain, was->chain, was->depth))
		return;
	s = &ld->site[a->chain[was->depth]];
	global = !strcmp(a->section, "global");
	scn_error(ld, s->file, s->line, "include %s sets %s%s%s%s again "
		 "(%s:%d) over %s:%d above it, whose value would be lost "
		 "unseen: set it after the include", s->written, a->key,
		 global ? "" : " in [", global ? "" : a->section,
		 global ? "" : "]", a->file, a->line, was->file, was->line);
}

/* A copy of name the scenario keeps (and frees); NULL when there is no
 * memory for it. */
static const char *keep_name(struct loader *ld, const char *name)
{
	struct scenario *scn = ld->scn;
	char **files = realloc(scn->files, (scn->nr_files + 1) *
				sizeof(*scn->files));

	if (!files)
		return NULL;
	scn->files = files;
	scn->files[scn->nr_files] = strdup(name);
	return scn->files[scn->nr_files] ? scn->files[scn->nr_files++] : NULL;
}

/* Reads path (value: an include as written, for messages; from and
 * from_line: where it was included, NULL for the scenario itself). */
int scn_load_file(struct loader *ld, const char *path, const char *value,
		  const char *from, int from_line)
{
	char found[PATH_MAX], real[PATH_MAX];
	const char *kept, *shown;
	FILE *f;
	struct stat st;
	bool bad_header;
	int rc;

	if (ld->stop)
		return -1;
	f = datadir_fopen(path, found, sizeof(found));

	if (!f) {
		if (from)
			scn_error(ld, from, from_line, "include %s: %s", value,
				 datadir_strerror(errno));
		else {
			datadir_error(path, 0, "cannot open: %s",
				      datadir_strerror(errno));
			ld->errors++;
		}
		return -1;
	}
	if (!realpath(found, real))
		snprintf(real, sizeof(real), "%s", found);
	/* one file under any name (a link, a hard link): its inode */
	if (fstat(fileno(f), &st)) {
		scn_error(ld, from ? from : path, from_line, "%s: %s", value,
			 strerror(errno));
		fclose(f);
		return -1;
	}
	for (int i = 0; i < ld->depth; i++) {
		const struct include_site *up = &ld->site[ld->chain[i]];

		if (up->dev == st.st_dev && up->ino == st.st_ino) {
			scn_error(ld, from, from_line, "include %s: includes "
				 "itself (include cycle)", value);
			fclose(f);
			return -1;
		}
	}
	/* read twice, its keys would be set again over every line between
	 * (a profile's cost table over the one included after it); the
	 * scenario itself is on the stack, said as a cycle */
	for (int i = 1; i < ld->nr_read; i++) {
		const struct include_site *was = &ld->site[i];

		if (was->dev == st.st_dev && was->ino == st.st_ino) {
			scn_error(ld, from, from_line, "include %s: read "
				 "already (included at %s:%d), and a second "
				 "read would set its keys again over every "
				 "line between", value, was->file, was->line);
			fclose(f);
			return -1;
		}
	}
	if (ld->depth == SCN_INCLUDE_DEPTH) {
		scn_error(ld, from, from_line, "include %s: more than %d "
			 "levels of include", path, SCN_INCLUDE_DEPTH);
		fclose(f);
		return -1;
	}
	if (ld->nr_read == SCN_MAX_FILES ||
	    (ld->bytes += st.st_size) > SCN_MAX_BYTES) {
		if (from)
			scn_error(ld, from, from_line, "include %s: more than "
				 "%s read for one scenario (includes of "
				 "includes counted)", value, ld->nr_read ==
				 SCN_MAX_FILES ? "64 files" : "64 MiB");
		ld->stop = true;	/* read no more */
		fclose(f);
		return -1;
	}
	ld->nr_read++;
	kept = keep_name(ld, real);
	shown = keep_name(ld, from ? found : path);
	if (!kept || !shown) {
		datadir_error(path, 0, "out of memory");
		ld->errors++;
		ld->stop = true;	/* read no more */
		fclose(f);
		return -1;
	}
	ld->site[ld->nr_read - 1] = (struct include_site){ .file = from,
		.line = from_line, .dev = st.st_dev, .ino = st.st_ino };
	snprintf(ld->site[ld->nr_read - 1].written,
		 sizeof(ld->site[0].written), "%s", value);
	ld->chain[ld->depth] = (uint8_t)(ld->nr_read - 1);
	ld->depth++;
	ld->file = shown;
	ld->f = f;
	ld->line = 0;
	bad_header = ld->bad_header;	/* the includer's, after */
	ld->bad_header = false;
	ld->in_machine = false;
	rc = ini_parse_stream(ini_reader_checked, ld, ini_handler_record, ld);
	ld->bad_header = bad_header;
	if (rc < 0)
		scn_error(ld, ld->file, ld->line + 1, "read error");
	if (ld->line == 0 && !from)
		scn_error(ld, ld->file, 1, "empty scenario: no case");
	else if (ld->line == 0)	/* a calibration whose write failed? */
		scn_error(ld, from, from_line, "include %s: empty file", value);
	ld->depth--;
	fclose(f);
	return 0;
}

const char *scn_profile_part(const char *path)
{
	const char *hw = strstr(path, "/hw/");

	return !strncmp(path, "hw/", 3) ? path : hw ? hw + 1 : NULL;
}

const char *scn_uncalibrated_profile(const struct scenario *scn)
{
	const char *profile = NULL;

	for (int i = 0; i < scn->nr_files; i++) {
		const char *f = scn->files[i];
		size_t n = strlen(f);

		if (n > 8 && !strcmp(f + n - 8, ".cal.ini"))
			return NULL;
		if (!profile && scn_profile_part(f))
			profile = f;
	}
	return profile;
}
