/*
 * A stand-in for libFuzzer, so that the fuzz targets build and run with
 * gcc too:
 *   driver [-n N] [-s SEED] FILE...  each file as is, then N mutations of
 *                                    each (bit flips, byte sets,
 *                                    truncation, insertion, duplication of
 *                                    a chunk, splicing with another file)
 *   driver -f FILE...                every byte of each file flipped with
 *                                    0xff, 0x01 and 0x80, one at a time
 * A directory stands for the files in it (a libFuzzer corpus).
 * Any crash or sanitizer report ends the run; it exits 0 otherwise.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static uint8_t *slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	uint8_t *b = NULL;
	size_t cap = 0, len = 0, k;

	if (!f) {
		perror(path);
		exit(2);
	}
	do {
		if (len == cap) {
			cap = cap ? cap * 2 : 4096;
			b = realloc(b, cap);
			if (!b)
				exit(2);
		}
		k = fread(b + len, 1, cap - len, f);
		len += k;
	} while (k);
	fclose(f);
	*n = len;
	return b;
}

/* The arguments, each directory replaced by its regular files (sorted,
 * so that a run does not depend on readdir's order). */
static char **expand(char **argv, int argc, int *n)
{
	char **out = NULL;
	int k = 0;

	for (int i = 0; i < argc; i++) {
		struct dirent **de;
		struct stat st;
		int m;

		if (stat(argv[i], &st) < 0 || !S_ISDIR(st.st_mode)) {
			out = realloc(out, (k + 1) * sizeof(*out));
			if (!out)
				exit(2);
			out[k++] = strdup(argv[i]);
			continue;
		}
		m = scandir(argv[i], &de, NULL, alphasort);
		if (m < 0) {
			perror(argv[i]);
			exit(2);
		}
		for (int j = 0; j < m; j++) {
			const char *name = de[j]->d_name;
			char *path;

			if (asprintf(&path, "%s/%s", argv[i], name) < 0)
				exit(2);
			if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
				out = realloc(out, (k + 1) * sizeof(*out));
				if (!out)
					exit(2);
				out[k++] = path;
			} else {
				free(path);
			}
			free(de[j]);
		}
		free(de);
	}
	*n = k;
	return out;
}

int main(int argc, char **argv)
{
	unsigned long runs = 1000;
	int c, flip = 0;
	uint8_t **seed;
	size_t *slen, total = 0;

	while ((c = getopt(argc, argv, "n:s:f")) != -1) {
		switch (c) {
		case 'n':
			runs = strtoul(optarg, NULL, 10);
			break;
		case 's':
			rng = strtoull(optarg, NULL, 10) | 1;
			break;
		case 'f':
			flip = 1;
			break;
		default:
			return 2;
		}
	}
	int nseed;
	char **paths = expand(argv + optind, argc - optind, &nseed);

	if (nseed <= 0)
		return 2;
	seed = calloc(nseed, sizeof(*seed));
	slen = calloc(nseed, sizeof(*slen));
	for (int i = 0; i < nseed; i++) {
		seed[i] = slurp(paths[i], &slen[i]);
		free(paths[i]);
		LLVMFuzzerTestOneInput(seed[i], slen[i]);
		total++;
	}
	for (int i = 0; i < nseed && flip; i++) {
		static const uint8_t masks[] = { 0xff, 0x01, 0x80 };
		uint8_t *b = malloc(slen[i] + 1);

		for (size_t off = 0; off < slen[i]; off++) {
			for (size_t m = 0; m < sizeof(masks); m++) {
				memcpy(b, seed[i], slen[i]);
				b[off] ^= masks[m];
				LLVMFuzzerTestOneInput(b, slen[i]);
				total++;
			}
		}
		free(b);
	}
	for (unsigned long r = 0; r < runs && !flip; r++) {
		int s = next() % nseed;
		size_t n = slen[s], cap = 2 * n + 64;
		uint8_t *b = malloc(cap);
		int edits = 1 + next() % 4;

		memcpy(b, seed[s], n);
		while (edits--) {
			size_t at = n ? next() % n : 0, k;

			switch (next() % 7) {
			case 0: /* flip a bit */
				if (n)
					b[at] ^= 1u << (next() % 8);
				break;
			case 1: /* an interesting byte */
				if (n)
					b[at] = "\0\n\t /\\.*()[]{}|?+$^-"
						[next() % 20];
				break;
			case 2: /* truncate */
				n = at;
				break;
			case 3: /* insert random bytes */
				k = 1 + next() % 8;
				if (n + k <= cap) {
					memmove(b + at + k, b + at, n - at);
					for (size_t j = 0; j < k; j++)
						b[at + j] = next();
					n += k;
				}
				break;
			case 4: /* duplicate a chunk */
				k = n - at < 64 ? n - at : 64;
				if (n + k <= cap) {
					memmove(b + at + k, b + at, n - at);
					n += k;
				}
				break;
			case 5: { /* splice the tail of another seed */
				int o = next() % nseed;
				size_t from = slen[o] ? next() % slen[o] : 0;

				k = slen[o] - from;
				if (at + k > cap)
					k = cap - at;
				memcpy(b + at, seed[o] + from, k);
				n = at + k;
				break;
			}
			case 6: /* a random 32-bit value (lengths, counts) */
				if (n >= 4) {
					uint32_t v = next() % 5 ? next() % 300 :
								  (uint32_t)next();
					memcpy(b + (at & ~(size_t)3) % (n - 3), &v, 4);
				}
				break;
			}
		}
		LLVMFuzzerTestOneInput(b, n);
		free(b);
		total++;
	}
	printf("%zu inputs run\n", total);
	for (int i = 0; i < nseed; i++)
		free(seed[i]);
	free(seed);
	free(slen);
	free(paths);
	return 0;
}
