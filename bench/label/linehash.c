/*
 * bench/label/linehash.c: what bench/label/scale.py's setfiles runs print,
 * in a form two runs can be compared by without keeping it: the number
 * of lines and the sum of their FNV-1a hashes (so the order of the lines
 * does not count: setfiles -T N prints them in the threads' order).
 * Reads stdin, prints "LINES SUM" (SUM in hex).  Cheap, so that the pipe
 * costs the program under test little.
 *
 *   linehash [-x WORD]
 *
 * -x: lines holding WORD are counted ("+N" after the sum), not hashed
 * (scale_tree's hard links: which name a walk of several threads
 * reaches first is a race).
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Is word in line (len bytes)? */
static int holds(const char *line, size_t len, const char *word)
{
	size_t w = strlen(word);

	for (size_t i = 0; w && i + w <= len; i++)
		if (!memcmp(line + i, word, w))
			return 1;
	return 0;
}

int main(int argc, char **argv)
{
	static char buf[1 << 16], line[1 << 16];
	const char *word = argc == 3 && !strcmp(argv[1], "-x") ? argv[2] : "";
	uint64_t h = 14695981039346656037ULL, sum = 0, lines = 0, skipped = 0;
	size_t len = 0;
	ssize_t n;

	while ((n = read(0, buf, sizeof(buf))) > 0)
		for (ssize_t i = 0; i < n; i++) {
			if (len < sizeof(line))
				line[len++] = buf[i];
			if (buf[i] != '\n') {
				h = (h ^ (unsigned char)buf[i]) *
				    1099511628211ULL;
				continue;
			}
			if (holds(line, len, word))
				skipped++;
			else
				sum += h;
			lines++;
			h = 14695981039346656037ULL;
			len = 0;
		}
	if (len) { /* a last line without '\n' */
		if (holds(line, len, word))
			skipped++;
		else
			sum += h;
		lines++;
	}
	printf("%llu %016llx +%llu\n", (unsigned long long)lines,
	       (unsigned long long)sum, (unsigned long long)skipped);
	return 0;
}
