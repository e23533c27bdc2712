/*
 * fuse_run.h: files.c presented as a file system (fuse.c, libfuse3's
 * low-level API).  Below main.c only.  (Not "fuse.h": that would shadow
 * libfuse3's own <fuse.h> on this directory's include path.)
 */
#ifndef SELINUXFSD_FUSE_RUN_H
#define SELINUXFSD_FUSE_RUN_H

struct fuse_args;
/* Mount, serve until a signal, unmount (0, or 1-3). */
int srv_fuse_run(struct fuse_args *args, const char *mountpoint,
		 int foreground);

#endif
