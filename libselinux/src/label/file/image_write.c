/* label/file/image_write.c: a file_contexts' index image written, for
 * sefcontext_compile (which links the static archive): the files opened
 * and indexed while they stay as they are, the image (assembled by
 * index/image_write.c) renamed into place. */
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fc.h"
#include "file.h"
#include "../index/image.h"

static void stat_inputs(const char *base, struct fc_img_input *in)
{
	for (int r = 0; r < FC_IN_NROLES; r++) {
		char path[PATH_MAX];
		struct stat st;

		snprintf(path, sizeof(path), "%s%s", base,
			 fc_img_role_suffix[r]);
		fc_img_input_of(stat(path, &st) == 0 ? &st : NULL, &in[r]);
	}
}

/* Wait until a write now would give a file a ctime after every ctime of
 * in[] (the file system's clock ticks coarsely; one that keeps whole
 * seconds shows as nanoseconds 0). */
static void wait_past(const struct fc_img_input *in)
{
	struct timespec last = {0, 0};

	for (int r = 0; r < FC_IN_NROLES; r++) {
		struct timespec c = {in[r].ctime_sec, in[r].ctime_nsec};

		if (!in[r].present)
			continue;
		if (!c.tv_nsec)
			c.tv_sec++;
		if (c.tv_sec > last.tv_sec ||
		    (c.tv_sec == last.tv_sec && c.tv_nsec > last.tv_nsec))
			last = c;
	}
	for (int i = 0; i < 300; i++) {
		struct timespec now, nap = {0, 5 * 1000 * 1000};

		clock_gettime(CLOCK_REALTIME_COARSE, &now);
		if (now.tv_sec > last.tv_sec ||
		    (now.tv_sec == last.tv_sec && now.tv_nsec > last.tv_nsec))
			return;
		nanosleep(&nap, NULL);
	}
}

/* The SHA-1 of the files, read again now, in order. */
static int rehash(char **files, size_t n, uint8_t out[LBL_SHA1_LEN])
{
	struct lbl_sha1 sha;

	lbl_sha1_init(&sha);
	for (size_t i = 0; i < n; i++) {
		_cleanup_free_ char *buf = NULL;
		struct stat st;
		size_t len;
		int r = lbl_read_file(files[i], &buf, &len, &st);

		if (r < 0)
			return r;
		lbl_sha1_update(&sha, buf, len);
	}
	lbl_sha1_final(&sha, out);
	return 0;
}

static unsigned int logged;
static char first_msg[256];

static int count_log(int type, const char *fmt, ...)
{
	va_list ap;

	(void)type;
	if (!logged++) {
		va_start(ap, fmt);
		vsnprintf(first_msg, sizeof(first_msg), fmt, ap);
		va_end(ap);
	}
	return 0;
}

/* One try: 0 and the image in *img (*len bytes), 1 when the files
 * changed meanwhile, or -errno. */
static int try_once(const char *base, uint8_t **img, size_t *len,
		    const char **why)
{
	struct selinux_opt opts[] = {{SELABEL_OPT_PATH, base},
				     {SELABEL_OPT_DIGEST, (char *)1}};
	struct fc_img_input in1[FC_IN_NROLES], in2[FC_IN_NROLES];
	union selinux_callback old = selinux_get_callback(SELINUX_CB_LOG);
	union selinux_callback cb = {.func_log = count_log};
	uint32_t roles[FC_IN_NROLES];
	struct selabel_handle *h;
	struct fc_data *d;
	unsigned char *dg;
	uint8_t again[LBL_SHA1_LEN];
	char **files;
	size_t dlen, nfiles;
	int r;

	stat_inputs(base, in1);
	logged = 0;
	selinux_set_callback(SELINUX_CB_LOG, cb);
	fc_image_disabled = true;
	h = selabel_open(SELABEL_CTX_FILE, opts, 2);
	r = h ? 0 : -errno;
	fc_image_disabled = false;
	selinux_set_callback(SELINUX_CB_LOG, old);
	if (r < 0) {
		*why = "the files do not open";
		return r;
	}
	if (logged) {
		*why = first_msg;
		r = -EPROTO;
		goto out;
	}
	d = h->data;
	if (!d->nspec) {
		*why = "no specification";
		r = -ENODATA;
		goto out;
	}
	r = fc_index_build_all(d);
	if (r < 0 || selabel_digest(h, &dg, &dlen, &files, &nfiles) < 0 ||
	    nfiles > FC_IN_NROLES) {
		*why = "indexing failed";
		r = r < 0 ? r : -EINVAL;
		goto out;
	}
	for (size_t i = 0; i < nfiles; i++) {
		int k;

		for (k = 0; k < FC_IN_NROLES; k++) {
			size_t bl = strlen(base);

			if (!strncmp(files[i], base, bl) &&
			    !strcmp(files[i] + bl, fc_img_role_suffix[k]))
				break;
		}
		if (k == FC_IN_NROLES) {
			*why = "a file read is not one of the base's";
			r = -EINVAL;
			goto out;
		}
		roles[i] = k;
	}
	/* The files as indexed are the files as they stay. */
	wait_past(in1);
	stat_inputs(base, in2);
	if (memcmp(in1, in2, sizeof(in1)) || rehash(files, nfiles, again) < 0 ||
	    memcmp(again, dg, dlen)) {
		r = 1;
		goto out;
	}
	r = fc_image_assemble(d, roles, (uint32_t)nfiles, in1, dg, img, len);
	if (r < 0)
		*why = "out of memory";
out:
	selabel_close(h);
	return r;
}

int lbl_fc_write_index(const char *base, const char *out, const char **why)
{
	_cleanup_free_ char *path = NULL, *tmp = NULL;
	uint8_t *img = NULL;
	size_t len = 0;
	int r = 1, fd;

	*why = NULL;
	if ((out ? !(path = strdup(out))
		 : asprintf(&path, "%s%s", base, FC_IMG_SUFFIX) < 0) ||
	    asprintf(&tmp, "%sXXXXXX", path) < 0)
		return -ENOMEM;
	for (int i = 0; i < 5 && r == 1; i++)
		r = try_once(base, &img, &len, why);
	if (r == 1) {
		*why = "the files kept changing";
		r = -EAGAIN;
	}
	if (r < 0) {
		/* a stale image would be ignored, but say it with no file */
		unlink(path);
		return r;
	}
	*why = "cannot write";
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		free(img);
		return -errno;
	}
	r = fc_write_all(fd, img, len);
	free(img);
	if (r >= 0 && fchmod(fd, 0644) < 0)
		r = -errno;
	if (close(fd) < 0 && r >= 0)
		r = -errno;
	if (r >= 0 && rename(tmp, path) < 0)
		r = -errno;
	if (r < 0)
		unlink(tmp);
	else
		*why = NULL;
	return r;
}
