/*
 * label/index/node.h: inside the engine, a trie node's matchers: how a
 * node's specs are matched (its stages, its automata and combined
 * regexes), what lookup.c asks of node.c, and the image's lazy checks
 * a lookup makes (image.c).
 */
#ifndef SELINUX_LABEL_INDEX_NODE_H
#define SELINUX_LABEL_INDEX_NODE_H

#include "dfa.h"
#include "index.h"

/*
 * Matching a trie node's specs: one DFA per node.
 *
 * A key reaches the nodes on its path (three to six for a path under
 * /usr/share); each node held one combined PCRE2 regex of its specs'
 * remainders, whose backtracking cost grows with the key's length times
 * the specs that get some way into it (/usr/share/ has hundreds).
 * Nearly every remainder is a regular expression in the strict sense, so
 * a node now holds a deterministic automaton of those (fc_dfa.c): the key
 * after the node's prefix is walked once, one table load per byte, and
 * the state reached lists the specs accepting there, highest first; the
 * first that passes the file-type and stem test wins, which is the spec
 * the combined regex (and the reference) find.  What the subset cannot
 * express (back references, anchors, option settings, possessive
 * quantifiers, POSIX classes...) stays in a combined PCRE2 regex of the
 * node's remaining specs, tried only when it may hold a higher index.
 *
 * Why built whole, per node, once it has paid for itself (below):
 *  - per node, because a node's specs share the prefix: the alphabet
 *    (byte classes, 10-40) and the sets of positions stay small, and
 *    lookups build only the nodes on their paths (a whole-file automaton
 *    would be built for every path);
 *  - whole (all states reachable, not lazily per transition), because
 *    refpolicy's largest node needs a few hundred states: immutable once
 *    published, concurrent lookups on one handle read it without a lock
 *    and nothing is ever flushed under a reader's feet.  The build runs
 *    under fc_data.lock, like the lazy regexes, and is published with a
 *    release store of built;
 *  - bounded: a node whose automaton would pass FC_DFA_MAX_STATES states
 *    (refpolicy's /usr/ node: dozens of specs like "(.* /)?x" and ".*y", whose
 *    sets of positions combine) has its specs split in halves, again
 *    until each half fits; the halves are walked highest first and only
 *    while they may hold an index above the best so far.  A single spec
 *    that does not fit stays with PCRE2.
 * A key ending in '\n' is walked twice, with and without it: "$" also
 *  matches before a final newline, and the subset has no inner anchors.
 */
#define FC_DFA_MAX_STATES 2048
/*
 * When a node's matchers are built: when they have paid for themselves,
 * as a JIT compiler decides (a tiered ski rental).  A node starts COLD
 * (stage 0): its specs are matched one by one, highest first, each
 * regex compiled on its own on first need - what the releases do, and
 * cheap for the few lookups of a short-lived process (matchpathcon,
 * restorecon of one file, install -Z).  Every lookup through it adds
 * what it cost to the node's work (in "ops", the automaton builder's
 * unit, about 20 instructions: FC_OPS_MATCH and FC_OPS_COMPILE below,
 * measured with callgrind on refpolicy: a PCRE2 match of a spec costs
 * ~3,300 instructions, a compile ~10,700).  Then:
 *  - a node of more than FC_DFA_SMALL specs gets its combined regex of
 *    all specs (JIT-compiled where allowed: stage FC_NODE_WARM) once its
 *    work passes what that costs to build (FC_OPS_WARM a spec), and
 *    answers with it, one match a lookup;
 *  - once the work passes fc_nstate.next, its automata are built
 *    (stage FC_NODE_SMALL: at most FC_DFA_SMALL_STATES states each)
 *    within a budget of 1/FC_RENT of that work: what they cost is only
 *    known by building them (a few thousand ops for a node of one spec,
 *    millions for refpolicy's /usr/), so a build that would cost more
 *    is given up and tried again once the work has doubled.  What the
 *    node spends, attempts included, stays within a few times what it
 *    would have spent knowing the cost in advance; paying the rent
 *    FC_RENT times over before buying favours the short-lived process
 *    (callgrind, refpolicy, the lookups of N = 100, 1000, 10000,
 *    50000: FC_RENT 2 and FC_OPS_WARM 750 took 21%, 8%, 8% and 10%
 *    fewer instructions than 1 and 1500, and N = 10 as many).
 * A node whose automata had to be split (a spec or a run of specs past
 * FC_DFA_SMALL_STATES states) is built again at FC_DFA_MAX_STATES
 * (stage FC_NODE_BUILT: fewer, larger automata, walked faster) after
 * FC_DFA_REBUILD lookups through it; the others are final.  Every stage
 * gives the same answer: the highest matching spec.  An older set or
 * the combined regex stays, unused, until the handle closes (a
 * concurrent lookup may still be in it), and while one thread builds,
 * the others go on with the stage there is instead of waiting.
 */
#define FC_DFA_SMALL 16
#define FC_DFA_SMALL_STATES 256
#define FC_DFA_REBUILD 1024
/* A match and a compile of one spec, in ops (+ the key's length: PCRE2
 * looks at its bytes); the work, a spec, that pays for the combined
 * regex (JIT-compiled: several times a compile); the first attempt at
 * automata; how many times the rent is paid over before buying. */
#define FC_OPS_MATCH 100
#define FC_OPS_COMPILE 500
#define FC_OPS_WARM 750
#define FC_OPS_FIRST 1024
#define FC_RENT 2
#define FC_NODE_COLD 0
#define FC_NODE_WARM 1
#define FC_NODE_BUILT 2
#define FC_NODE_SMALL 3
/* An index image's node whose automata or lists do not check out: a
 * lookup reaching it fails with EINVAL. */
#define FC_NODE_BAD 4

/*
 * What a node matches with, and how far it is (the node's mutable state,
 * fc_data.ns[k], apart from the flat trie).
 *  warm: the combined regex of all specs (FC_NODE_WARM), then unused.
 *  work: the ops spent matching the node while COLD or WARM, and uses
 *   the lookups through a split FC_NODE_SMALL set (__atomic, relaxed:
 *   a count lost to a race only moves a build a little); next: the work
 *   at which automata are tried next (0: FC_OPS_FIRST), under
 *   fc_data.lock.
 *  set: the automata and the rest, built under fc_data.lock and published
 *   with a release store of set (then of built: FC_NODE_SMALL or
 *   FC_NODE_BUILT), read-only afterwards; an older set stays, unused, in
 *   the newer one's older until the handle closes.  With an index image,
 *   the set is the image's (the automata in place), FC_NODE_BUILT from
 *   the node's first use.
 */
struct fc_nstate {
	pcre2_code *warm;
	struct fc_set *set;
	uint64_t work, next;
	uint32_t uses;
	uint8_t built;
	bool noted; /* in fc_data.used_nodes */
};

/* What a node matches with (see fc_nstate.set). */
struct fc_set {
	/* dfa: the automata of the specs in the regular subset (one, or
	 * several for consecutive runs of specs when one would be too
	 * large), the highest specs' first; rest, the others, highest
	 * first, and code, their combined regex.  rest NULL: out of
	 * memory.  code_state: FC_CODE_NONE until code is built (an index
	 * image's set builds it on first need), FC_CODE_OK, or
	 * FC_CODE_FAILED (a regex among them PCRE2 rejects, or ENOMEM:
	 * match each on its own). */
	const struct fc_dfa *const *dfa;
	uint32_t ndfa;
	const uint32_t *rest;
	uint32_t nrest;
	pcre2_code *code;
	int code_state;
	bool owned; /* dfa[i] and rest are this set's (not an image's) */
	bool split; /* some automaton was split or left a spec out for its
		     * size (FC_NODE_SMALL: built again larger) */
	struct fc_set *older;
};
#define FC_CODE_NONE 0
#define FC_CODE_OK 1
#define FC_CODE_FAILED 2

/* An index image's part did not check out: the lookup fails, and the
 * handle reads the files instead (file/open.c, fc_image_fallback). */
static inline int fc_corrupt(struct fc_data *d)
{
	__atomic_store_n(&d->img_bad, 1, __ATOMIC_RELEASE);
	return -EINVAL;
}

/* Node k's specs, highest first. */
static inline const uint32_t *fc_node_specs(const struct fc_data *d, uint32_t k)
{
	return d->trie.specs + d->trie.node[k].specs;
}

/* index.c: d->ns for d->trie.nnode nodes, zeroed: 0 or -ENOMEM; and
 * away. */
int fc_nstate_alloc(struct fc_data *d);
void fc_nstate_free(struct fc_data *d);

/* node.c */
/* Under d->lock: move node k on from the stage it is in, if its work
 * says so (see FC_NODE_COLD). */
void fc_node_prepare(struct fc_data *d, uint32_t k);
/* Is node k's work (or use count) at its next step?  Asked without the
 * lock, before taking it. */
bool fc_node_due(const struct fc_data *d, uint32_t k);
/* The combined regex of set t's rest, built on first need (an index
 * image's sets come without it): NULL if it cannot be (then each regex
 * is matched on its own). */
pcre2_code *fc_set_code(struct fc_data *d, struct fc_set *t);
/* The sets of the nodes given a state, freed (at close). */
void fc_nodes_free(struct fc_data *d);
/* jit.c: may this process JIT-compile regexes (process:execmem)? */
bool lbl_jit_allowed(void);

/* image.c: the lazy checks of an index image's units. */
/* Do spec i's fields (an index image's) lie inside the image, and does
 * it have its checksum?  Asked where an index comes out of the image,
 * before any other field is read. */
bool fc_spec_check(const struct fc_data *d, uint32_t i);
/* The same for trie node k (its children, label, specs and set) and for
 * the block of heads holding head b. */
bool fc_node_check(const struct fc_data *d, uint32_t k);
bool fc_heads_check(const struct fc_data *d, uint32_t b);

/* The same, true at once without an image (the lookups' hot path). */
static inline bool fc_spec_ok(const struct fc_data *d, uint32_t i)
{
	return !d->img || fc_spec_check(d, i);
}

static inline bool fc_node_ok(const struct fc_data *d, uint32_t k)
{
	return !d->img || fc_node_check(d, k);
}

static inline bool fc_heads_ok(const struct fc_data *d, uint32_t b)
{
	return !d->img || fc_heads_check(d, b);
}

#endif
