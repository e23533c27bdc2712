/* tests/lib/fixture.h: temporary trees for the unit tests. */
#ifndef TESTS_FIXTURE_H
#define TESTS_FIXTURE_H

#include <stddef.h>
#include <sys/types.h>

#include <check.h>

/*
 * A fixture is a fresh mkdtemp() directory holding whatever the test
 * builds in it: a fake selinuxfs ("sys/fs/selinux/..."), a fake procfs
 * ("proc/..."), a config tree ("etc/selinux/...") and plain files.
 * fx_setup() makes it; fx_teardown() removes it recursively.
 */
extern char fx_root[4096];

void fx_setup(void);
/* As fx_setup(), with the library's log callback silenced (tests of
 * inputs that make it complain). */
void fx_setup_quiet(void);
/* As fx_setup(), but under base (e.g. /dev/shm, a tmpfs: ext4 limits an
 * xattr to a block, tmpfs takes the 64 KiB the VFS allows). */
void fx_setup_in(const char *base);
void fx_teardown(void);

/* fx_root + "/" + rel, in a rotating static buffer (8 slots). */
const char *fx_path(const char *rel);

/* Create fx_root/rel (and its parent directories) holding len bytes. */
void fx_write(const char *rel, const void *data, size_t len);
/* The same for a NUL-terminated string (without writing its NUL). */
void fx_writes(const char *rel, const char *s);
/* Create directory fx_root/rel and its parents. */
void fx_mkdir(const char *rel);
/* Read fx_root/rel into a malloc'd NUL-terminated buffer; *len if non-NULL. */
char *fx_read(const char *rel, size_t *len);

/*
 * A fake selinuxfs under fx_root/"selinuxfs" with the given files, and
 * set_selinuxmnt() pointed at it.  Returns the mount path.
 */
const char *fx_selinuxfs(void);

/* A fake procfs root under fx_root/"proc" for the process attribute
 * tests, through the unexported core_set_proc_root hook. */
void fx_proc_root(void);

/* Point the library's config root (normally /etc/selinux) at
 * fx_root/"etc/selinux" through the unexported core hook. */
void fx_config_root(void);

/* Run suite s (fork mode, as CK_FORK says) and free it: the exit status
 * of a unit test's main(), 0 when every test passed. */
int fx_run(Suite *s);

#endif
