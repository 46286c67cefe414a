/*
 * ga_exit.h — the exit statuses every GPUArmor tool uses (gasim, gaconv, gaeval, garun, gaprobe, and the
 * tools to come), documented once in README.md ("Exit codes") and in each tool's --help.
 *
 * Why these: a script must tell "the tool could not do its job" (1) from "you called it wrongly" (2)
 * from "it did its job and found something wrong" (3, 4, N) without parsing text. Usage errors are 2
 * everywhere, as in most Unix tools. Detections only change the status when the user asks for it with
 * --error-exitcode N (Compute Sanitizer's option of that name), and N may not be one of the codes
 * below, so a detection can never be mistaken for bad input.
 */
#ifndef GA_EXIT_H
#define GA_EXIT_H

#define GA_EXIT_OK 0         /* the job ran to completion (findings only change this with --error-exitcode) */
#define GA_EXIT_ERROR 1      /* bad input or a runtime error: malformed trace, unreadable file, refused run,
                                I/O error, the board or link not answering; nothing half-written */
#define GA_EXIT_USAGE 2      /* a bad command line: unknown or repeated option, bad value, missing operand */
#define GA_EXIT_MISMATCH 3   /* a check failed: the RTL or the board disagrees with the golden model, or a
                                self-check (garun's expected detections, gaeval check) failed */
#define GA_EXIT_INCOMPLETE 4 /* gasim with --error-exitcode: no program error found, but some accesses could
                                not be checked (their LOADMETA walks were cut short) */
#define GA_EXIT_FIRST_USER 5 /* the smallest --error-exitcode a user may choose (up to 255) */

#endif /* GA_EXIT_H */
