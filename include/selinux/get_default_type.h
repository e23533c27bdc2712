/*
 * get_default_type.h - the default type of a role (contexts/default_type).
 */
#ifndef _SELINUX_GET_DEFAULT_TYPE_H_
#define _SELINUX_GET_DEFAULT_TYPE_H_

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Path of the file mapping each role to its default type, under the
 * policy root ("contexts/default_type").  Static storage.
 */
extern const char *selinux_default_type_path(void);

/*
 * Look up role in default_type and store its type in *type (free with
 * free()).  Returns 0, or -1 with errno set (ENOENT: role not listed).
 */
extern int get_default_type(const char *role, char **type);

#ifdef __cplusplus
}
#endif
#endif
