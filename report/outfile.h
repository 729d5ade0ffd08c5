/*
 * Files written whole or not at all.  A command's output file is written
 * under a temporary name beside it and renamed over it only once every
 * write and the close succeeded: a full disk or a killed run leaves no
 * truncated file that looks whole (an empty .cal.ini would be included
 * and run uncalibrated).  Every failure is said on stderr, naming the
 * file and the reason.
 */
#ifndef PPSIM_OUTFILE_H
#define PPSIM_OUTFILE_H

#include <limits.h>
#include <stdbool.h>
#include <signal.h>
#include <stdio.h>
#include <sys/types.h>

struct outfile {
	FILE *f;		/* write here */
	char path[PATH_MAX];	/* what it becomes */
	char tmp[PATH_MAX];	/* what it is until outfile_commit() */
};

/* Opens a temporary file beside path, which must be a regular file if it
 * exists (never a device: a rename would replace /dev/full) and not one
 * the run read (outfile_may_replace) (suffix: the end of its name the
 * temporary one keeps too, "" or ".png" for gnuplot's terminal choice).
 * Returns o->f, or NULL with the reason on stderr (who: "ppsim run"). */
FILE *outfile_open(struct outfile *o, const char *path, const char *suffix,
		   const char *who);

/* Flushes and closes o->f; renames it to its path if every write went
 * through.  Else removes it, leaves any older file at the path as it was,
 * says why, and returns -1. */
int outfile_commit(struct outfile *o, const char *who);

/* A group of files replaced together or not at all (a run's --out: its
 * table, CSVs, plots and page agree).  After outfile_group_begin(), a
 * commit that succeeds keeps the written file under its temporary name;
 * outfile_group_end(keep) then renames them all (keep) or removes them,
 * and every file at their paths is left as it was.  An interrupt removes
 * them.  Returns 0; -1 when not kept or the first rename failed, none
 * done; -2 when a later one failed, those before it done (said). */
void outfile_group_begin(void);
int outfile_group_end(bool keep, const char *who);

/* Where path's content is now: the temporary name of a grouped file not
 * yet renamed (a plot's data, read by gnuplot), else path. */
const char *outfile_current(const char *path);

/* The names (in names, at most most of them) of the group's files in dir
 * whose names end in ext: what this run wrote there, not what an earlier
 * one left.  Returns how many. */
int outfile_grouped(const char *dir, const char *ext, const char **names,
		    int most);

/* Holds the interrupts the handler serves (SIGINT, SIGTERM, SIGHUP,
 * SIGQUIT) until outfile_release(was): across a step that makes what it
 * must know of (a temporary file, gnuplot's pid), lest one come between
 * and leave it. */
void outfile_hold(sigset_t *was);
void outfile_release(const sigset_t *was);

/* The process writing the temporary file (gnuplot), or 0 once it ended:
 * an interrupt ends it before the file is removed, lest it write on. */
void outfile_writer(pid_t pid);

/* Gives up on o: closes and removes the temporary file. */
void outfile_abort(struct outfile *o);

/* The longest directory outputs go to: the paths of the files in it (a
 * subdirectory a scenario, names of at most 255 bytes) stay within
 * PATH_MAX, and within the bounds the commands format them into. */
#define OUTFILE_DIR_MAX	2000

/* Whether dir can take outputs, asked before any simulation: at most
 * OUTFILE_DIR_MAX bytes, created if missing (not its parents), a file
 * written in it and removed, and no file there that the run read under a
 * name one of names (fnmatch patterns, NULL-terminated; or NULL) matches:
 * the files the command writes there.
 * Returns 0, or -1 with "OPTION DIR: why" on stderr. */
int outfile_check_dir(const char *dir, const char *option,
		      const char *const *names, bool dry);
/* dry (--dry-run): nothing is made; a missing dir is checked as mkdir
 * would meet it, in its parent. */

/* Removes the directories outfile_check_dir made, those still empty (a
 * run that failed before writing in them), the last made first; also on
 * an interrupt. */
void outfile_remove_made_dirs(void);

/* Whether a and b name one existing file, under any names (a.ini and
 * ./a.ini, a link): the same device and inode. */
bool outfile_same_file(const char *a, const char *b);

/* Whether a file can be written at path (calibrate --out): a name that
 * fits, a regular file if it exists and not one the run read (but for
 * outfile_may_replace's), and a directory that takes a new file.  0 or -1
 * as above. */
int outfile_check_file(const char *path, const char *option);

/* The class every write is checked against: nothing ppsim writes
 * (outfile_open, outfile_check_dir, outfile_check_file) replaces a file
 * the run read (datadir_read_as: the scenario, every include, a trace,
 * a CSV; the same device and inode), but for the one named here:
 * calibrate's calibration, which the scenario includes to be replaced. */
void outfile_may_replace(const char *path);

/* Makes sure descriptors 0, 1 and 2 are open, so that no file the
 * program opens becomes its stdout by accident; a closed stdout becomes
 * a read-only /dev/null, where every write fails and is said. */
void outfile_guard_std(void);

/* Flushes stdout; returns 0, or -1 when anything written to it was lost:
 * the reason on stderr (/dev/full), none for a reader that left (| head). */
int outfile_close_stdout(void);

#endif
