/*
 * get_context_list.h - the contexts a user's session may start in, for
 * login programs (login, sshd, cron, su): which are reachable, in which
 * order the policy's default_contexts and contexts/users/USER files
 * prefer them, and interactive selection.
 */
#ifndef _SELINUX_GET_SID_LIST_H_
#define _SELINUX_GET_SID_LIST_H_

#include <selinux/selinux.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The SELinux user that unmapped Linux users get by convention. */
#define SELINUX_DEFAULTUSER "user_u"

/*
 * The contexts a session of SELinux user 'user' may start in.  They are
 * reached from 'fromcon' (NULL: the calling process's context) and
 * listed most preferred first.
 *
 * The candidates are the role:type pairs listed for fromcon's role:type
 * in contexts/users/USER and then in contexts/default_contexts, each
 * completed to "user:role:type[:fromcon's range]" and kept when the
 * policy accepts it as a valid context; duplicates are dropped.  When no
 * candidate is left, the single context "user:" + the first line of
 * contexts/failsafe_context is returned instead.
 *
 * On success *list is a NULL-terminated array (free with freeconary())
 * and the number of entries (>= 1) is returned.  Returns -1 with errno
 * set when not even the failsafe context is usable (getcon()'s errno
 * when fromcon is NULL and the process context is unavailable).
 */
extern int get_ordered_context_list(const char *user, const char *fromcon,
				    char ***list);

/*
 * As get_ordered_context_list(), with fromcon's range replaced by level
 * (an MLS level or range) first.  level NULL: exactly the call above.
 */
extern int get_ordered_context_list_with_level(const char *user,
					       const char *level,
					       const char *fromcon,
					       char ***list);

/*
 * The first (most preferred) context of get_ordered_context_list() in
 * *newcon (free with freecon()).  Returns 0, or -1 with errno set.
 */
extern int get_default_context(const char *user, const char *fromcon,
			       char **newcon);

/* The same with get_ordered_context_list_with_level(). */
extern int get_default_context_with_level(const char *user, const char *level,
					  const char *fromcon, char **newcon);

/*
 * The first context of the ordered list whose role is 'role'.  Returns
 * 0, or -1 (errno EINVAL when the list holds no context with that role).
 */
extern int get_default_context_with_role(const char *user, const char *role,
					 const char *fromcon, char **newcon);

/* The same, with fromcon's range replaced by level (NULL: unchanged). */
extern int get_default_context_with_rolelevel(const char *user,
					      const char *role,
					      const char *level,
					      const char *fromcon,
					      char **newcon);

/*
 * Let the user choose a context from a list.  The default (first) context
 * of the NULL-terminated list is shown on stdout and the user on stdin
 * keeps it or picks another one.  The choice is
 * copied to *newcon (free with freecon()).  Returns 0, or -1 (empty list,
 * end of input, allocation failure).
 */
extern int query_user_context(char **list, char **newcon);

/*
 * Ask the user to type a context.  The prompt on stdout/stdin asks for a
 * role (and, with MLS, a level), completes it with the role's default
 * type (get_default_type) into a context of 'user' and accepts it if the
 * policy does.  The context is returned in
 * *newcon (free with freecon()).  Returns 0, or -1 when the user declines
 * or input ends.
 */
extern int manual_user_enter_context(const char *user, char **newcon);

#ifdef __cplusplus
}
#endif
#endif
