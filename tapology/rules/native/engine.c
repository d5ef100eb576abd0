/* The native rule engine: the chain walk, turn clean-ups, royal rule, turn keys and perft of
 * tapology/rules/chains.py and tapology/rules/perft.py, over the flat tables of engine.h.
 *
 * One engine for every rule set: nothing here is generated per board.  The Python code is the
 * reference; each function below names the one it mirrors.  Work state:
 *
 *   Board      a code per tile (dense codes), a count per code, and a hash of the position
 *              relative to where it was loaded (XOR of zob[tile][code] changes).
 *   undo       one stack of (tile, old code) for every write: moves, clean-ups, perft plies,
 *              nested attack walks; each caller restores to the height it started at.
 *   path       the positions on the current chain(s): hash and undo height of each.  A new
 *              position equal to one of its walk's levels (hash match, then exact comparison of
 *              the tiles written since that level) is a repetition and is not taken.
 *   keys       the turns found at each node of the perft stack, with their changes in chg; a node's
 *              keys are told apart by their start and end tiles (a list per pair, se_head), then an exact
 *              comparison of changes; where the keys are by changes or the board too big for a table per
 *              pair, by a hash table of the changes' hash instead.  A bulk count's last ply and a playout's
 *              turn, where every chain is accepted, need no keys: each chain is counted by the hash of
 *              (start, end, the position after it), equal turns hashing alike; once a node has two
 *              chains of one hash, the first chain of each hash leaves a witness (the tiles it wrote),
 *              a later one of the same hash is compared with it and not counted again; a node where
 *              two turns hash alike is counted again with keys (count_turn).
 *   one order  where an entry and its follow-up through a link are single cells alike (connect6's two
 *              stones: one tile read for one code, the same code written), the chains placing the
 *              follow-up on a tile before the entry's are not walked: the other order gives their
 *              turns (once_links proves it from the tables; perft --rbg and label paths walk both).
 *              Two slides linked anywhere (breakthru's): a second slide starting before the first's
 *              entry tile whose reach (every tile it or its continuations read or write) misses the
 *              first's tiles is not walked, the other order (from its own entry, walked earlier)
 *              giving the turn (apart_slides proves the two slide moves twins from the tables; the
 *              tiles apart are read per pair, as bit sets, where the link is followed).
 *   memos      each node runs its turn clean-ups and its royal test once on its own position,
 *              recording what they read; a chain whose changes touch none of that gets the same
 *              answer (both runs are deterministic functions of what they read), any other chain
 *              runs them again.  The royal test's record is bit sets where the attack index is
 *              (att_acc): the tiles it read, and per code the tiles where that code may start an
 *              attack or put a royal piece (each change of a turn one bit test, attack_reads).
 *
 * Nothing is allocated after tp_new; a full arena returns TP_ERR_CAP (the caller grows the
 * capacities and asks again).
 */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"

/* A specialised build (tapology/rules/native/specialise.py) includes this file after defining TABLES(E) as its own
   tables, static constants the compiler folds (sizes, masks, offsets), and the hooks TP_GEN_PATTERN (an
   application's pattern checks, unrolled), TP_GEN_WRITES (its new values) and TP_GEN_ENTRIES (a node's entry
   moves at one tile, unrolled per code with the checks on that tile decided at generation, and TP_GEN_OTHER_CODES,
   TP_GEN_OTHER_CODE_OFF, TP_GEN_OTHER_TILES: per entry set, the codes and tiles of its rows with an entry move that
   is not quiet, all a node scans where the quiet moves run apart).  The generic build
   reads the tables it was given. */
#ifndef TABLES
#define TABLES(E) (&(E)->t)
#endif

enum { TP_ERR_CAP = -1, TP_ERR_FIXPOINT = -2, TP_ERR_CODE = -3, TP_ERR_ARG = -4, TP_ERR_RESET = -5, TP_ERR_MAXIMUM = -6,
       TP_ERR_DUP = -7, /* internal: two turns of a node counted by hash are alike (count_turn) */
       TP_ERR_FOUND = -8 /* internal: the walk reached the turn a playout picked (pick_turn) */ };
enum { WALK_TURNS = 0, WALK_ATTACK = 1 };
enum { END_PLIES = 1, END_LINE = 2, END_COUNT = 3, END_CONNECT = 4, END_CHAIN = 5, END_COUNTER = 6 };
enum { COND_BOARD = 0, COND_REGION = 1, COND_MISSING = 2, COND_ANY = 3 };
enum { TRACK_NONE = 0, TRACK_CLEANUPS = 1, TRACK_ATTACK = 2 };
/* memo_turn: slots; most tiles, codes and writes a kept run may hold; largest board (words) kept */
enum { TM_SIZE = 512, TM_MAXT = 16, TM_MAXK = 12, TM_MAXW = 16, TM_WORDS = 4, TM_NODE = 4 };
typedef struct {
    uint64_t key; /* the hash of the turn's changes and its player; 0 empty */
    uint32_t ver; /* counts the runs kept in the slot (a node's reference to it holds while unchanged) */
    int32_t p, nt, nk, nw, nx;
    uint64_t tb, cb;           /* bit u % 64 of each tile read, c % 64 of each code read (memo_node_fits' sieve) */
    int32_t x[3 * TM_MAXW];    /* the turn's changes (tile, code, old code), by tile */
    int32_t tile[2 * TM_MAXT]; /* (tile, code at the node) read */
    int32_t code[2 * TM_MAXK]; /* (code, count at the node) read, tile sets at the node in tm_bits */
    int32_t w[2 * TM_MAXW];    /* (tile, code) the run left, by tile */
} TurnMemo;

#define MAX_CLEANUP_ROUNDS 10000 /* chains.py MAX_CLEANUP_ROUNDS */
#define SOLO_WORK ((size_t)1 << 18) /* the most applications solo_apps reaches through links, in all */
#define SE_LONG 8 /* the longest list of keys of one (start, end) pair before the engine turns to the hash table */
#define SE_MAX ((size_t)1 << 22) /* the most (start, end) pairs keys are listed by (16 MiB of tables), else by hash */
#define ATT_MAX ((size_t)1 << 22) /* the most (row, tile) pairs the attack index is kept for as bit sets (16 MiB) */
#define AC_READS 24 /* the most tiles an attack entry's kept walk may have read (attack_kept) */
#define AC_WAYS 2 /* the walks kept per attack entry (attack_kept) */

typedef struct {
    int32_t *codes; /* [n] */
    int32_t *count; /* [nd] tiles holding each code */
    uint64_t *bits; /* [nd*words] the tiles holding each code, as bit sets */
    uint64_t hash;
} Board;

typedef struct {
    uint64_t hash;
    int32_t start, end;
    int32_t off, len; /* changes: chg[2*off .. 2*(off+len)) as (tile, dense code), by tile */
    uint8_t pos_ok;   /* the royal test on the position after the turn passed */
    uint8_t accepted; /* some chain with this key passed the royal rule */
    uint8_t flagged;  /* some accepted chain holds a move of a mandatory class */
    uint8_t legal;    /* accepted, and flagged where the mandatory rule applies */
    int32_t reset_or, reset_and; /* the counters the moves' classes reset, in some and in every accepted chain */
    int32_t most_lo, most_hi; /* the maximum rule: the fewest and the most moves of its classes in an accepted chain */
    int32_t ways;     /* ways mode: the legal ways of playing it (distinct orders of its chains' writes) */
    int32_t next;     /* the node's previous key with the same start and end (se_head), or -1 */
    int32_t best;     /* chains mode: where its least label path's record is in E->chains (-1: none yet) */
} Key;

typedef struct {
    Board *b;
    int32_t player;
    int32_t mode;      /* WALK_TURNS: visit = record a turn; WALK_ATTACK: visit = a target changed */
    int32_t path_base; /* the walk's level 0 (its start position) in the path stack */
    int32_t undo_base; /* undo height at the walk's start */
    int32_t seq_base;  /* seq height at the walk's start */
    int32_t start;     /* the entry tile of the chain being walked */
    const int32_t *targets;
    const int32_t *target_base; /* codes of the targets at the walk's start */
    int32_t ntargets;
} Walk;

struct tp_engine {
    tp_tables t;
    uint64_t *zob;  /* [n*nd] */
    uint8_t *forced;/* [napps] some link of the application is forced */
    int32_t maxw;   /* most writes of one application */
    int32_t words;  /* 64-bit words of a tile set */
    int32_t *ent_code_off, *ent_codes; /* [sets+1], [sets*nd]: per entry set s*np + player, the codes some entry starts from */
    uint64_t *ent_tiles; /* [sets*words] per entry set, the tiles some entry starts on (a set-up's region, say) */
    int32_t *roy_off, *roy_codes; /* [np+1], [np*nd]: each player's royal codes (royal_mine) */
    uint8_t *cond_count; /* [nconds] 1: a count of codes over the whole board (cond_holds' COND_BOARD case alone) */
    uint8_t *cond_free;  /* [nconds] 1: a condition reading no tile at hand (no here, no around): the same for every
                            follow-up of one link loop (follow_conds) */
    uint32_t *cf_stamp;  /* [nconds] the link loop whose board cf_val[c] was read on */
    uint8_t *cf_val;     /* [nconds] */
    uint64_t *lh_full;   /* [nconds] on a board of one word, for a condition on lines through the tile at hand whose
                            lines are each listed at every tile on them (line_conds): the tiles on a full line of its
                            codes, read once per link loop (cf_stamp); NULL none, or 0 bits where not such */
    uint8_t *lh_ok;      /* [nconds] 1 for such a condition */
    uint32_t cf_gen, cf_cur; /* the last link loop's number; the one the next follow is called from (0: none) */
    uint64_t *grp_bits; /* [ngroups*words] an indexed clean-up group's tiles with applications keyed there */
    uint8_t *grp_few;   /* [ngroups] 1 where an indexed group has no more such tiles than trigger codes (trigger_few) */
    uint8_t *grp_tcode; /* [ngroups*nd] 1 where the code is one of the group's trigger codes */
    /* the attack index as bit sets: per row (attacker q, target) its entry tiles (att_tile) and each tile's entry in
       the row (-1 none); per attacker, the codes some entry of its rows accepts (att_mask); NULL where the index
       is empty or the board too big (ATT_MAX) */
    uint64_t *att_bits; /* [np*n*words] */
    int32_t *att_pos;   /* [np*n*n] */
    int32_t *att_code_off, *att_codes; /* [np+1], [np*nd] */
    uint64_t *att_acc;  /* [np*n*nd*words] per row and code v, its entry tiles whose mask accepts v (a change to v there
                           may start an attack: attack_reads), every tile where v is a royal code of a player other
                           than the row's attacker; NULL with att_bits, or where it would pass ATT_MAX / 4 */
    Board main, scratch;

    int32_t *undo_tile, *undo_old;
    int32_t undo_top, undo_cap;
    uint64_t *path_hash;
    int32_t *path_undo;
    uint8_t *path_mid; /* [depth_cap] a slide flies on from this level's position (not a stop) */
    int32_t path_top, depth_cap;
    int32_t *seq; /* applications of the chain(s) being walked; never deeper than path */
    int32_t seq_top;
    int32_t *nv;  /* [maxw] new values of one application's writes */
    int32_t *capbuf; /* [2*maxray] (tile, code) pairs one application's line capture takes */
    int32_t *cstack; /* [n] the flood of a connect end rule (and of a capture by liberties) */
    int32_t *gcbuf;  /* [n] the tiles a capture by liberties takes */
    uint32_t *cseen; /* [n] */
    uint32_t cgen;

    Key *keys;
    int32_t nkeys, key_cap;
    int32_t *chg;
    int32_t nchg, chg_cap;
    int32_t *ht;  /* [ht_size] key ids of the current node (open addressing) */
    uint32_t *ht_gen;
    uint32_t gen;
    int32_t ht_size, node_keys;
    int32_t *se_head;   /* [n*n] the node's last key from tile s to tile e (row s*n + e, valid where se_gen is segen),
                           NULL: keys by hash (ht) */
    uint32_t *se_gen;   /* [n*n] */
    uint32_t segen;
    int32_t se_now;     /* the current node's keys are told apart by start and end (else by hash) */
    int32_t se_long;    /* some list of a pair grew past SE_LONG: later nodes by hash */

    int32_t *tmp;   /* [3n] (tile, new, old) of one chain's changes */
    uint32_t *tstamp; /* [n] */
    uint32_t tgen;
    uint32_t *astamp; /* [napps] */
    uint32_t agen;
    int32_t *node_royal; /* [n] royal tiles of the mover at the node */
    int32_t n_node_royal;
    int32_t *mine;  /* [n] */
    int32_t *tbase; /* [n] */

    /* the node's clean-ups: the writes they make on the node's own position, and what they read there (tiles by
       stamp, codes whose counts or tile sets they read); a chain touching none of it gets the same writes */
    int32_t *cm_tile, *cm_code; /* [undo_cap] */
    int32_t cm_len, cm_ok;
    uint32_t *cm_tread; /* [n] */
    uint32_t *cm_cread; /* [nd] */
    uint32_t cm_gen;
    /* clean-up runs of turns the node's memo cannot answer (memo_turn), kept across nodes: per slot (by the hash of
       the turn's changes and its player), what the run read on the board after the turn (tiles with their codes;
       codes with their counts and tile sets) and the codes it left on the tiles it wrote.  A turn whose board
       holds the same on all it read gets the same writes. */
    TurnMemo *tm;      /* [TM_SIZE] */
    uint64_t *tm_bits; /* [TM_SIZE * TM_MAXK * words] the tile sets of the codes each slot read */
    uint32_t *tm_tread, *tm_cread; /* [n], [nd] a run's stamps, as cm_tread and cm_cread */
    uint32_t tm_gen;
    uint64_t cn_hash; /* the hash of the node's clean-up net writes (E->cn): slots are looked up by it too */
    /* the slots a node used, each with a turn of the node it answered (a turn differing from that one only where
       the slot's run read nothing gets the same writes: no look-up by hash); tn_node: the node's cm_gen */
    int32_t tn_n, tn_next;
    uint32_t tn_node[TM_NODE], tn_ver[TM_NODE];
    int32_t tn_idx[TM_NODE], tn_nx[TM_NODE];
    int32_t tn_x[TM_NODE][2 * TM_MAXW];
    /* the node's royal test: whether the mover's royal tiles are attacked on the node's own position, and what
       it read (tiles as bits; entry tiles of the attack index rows scanned, with their masks: per code v as bits in
       at_rel with att_acc, else by stamp with the mask, -1 for several) */
    uint64_t *at_rbits; /* [words] */
    const uint64_t *at_acc; /* [nd*words] with att_acc: per code v, the scanned entry tiles whose entry accepts v */
    uint64_t *at_rel;   /* [nd*words] at_acc where the node has several rows (royal tiles, attackers) */
    uint32_t *at_gstamp; /* [n] */
    int32_t *at_gat;    /* [n] */
    uint32_t at_gen;
    int32_t at_ok, at_base;
    /* the attack entries' kept walks (attack_kept, NULL where ak_proof fails): AC_WAYS per entry gi of the attack
       index, each the code its tile held (-1 none kept), whether a chain changed the row's target, and the tiles the
       walk read (up to AC_READS, the target and the entry tile among them) with the codes they held; ak_last: the
       way that answered last; ak_save: at_rbits during a walk */
    int32_t *ak_code, *ak_tile, *ak_val;
    uint8_t *ak_n, *ak_hit, *ak_last;
    uint64_t *ak_save; /* [words] */
    /* the last ply of a bulk count on the generated C (leaf_plan): what gen_settle answers for each quiet move
       quiet_as_node passes (1 a turn, 0 none), -1 where every move is settled; lq_groups: the mover has clean-ups */
    int32_t lq, lq_groups;
    int32_t tracking;   /* TRACK_CLEANUPS / TRACK_ATTACK: the run records what it reads into that memo */

    int32_t *chains; /* chains mode: records of label paths, each the least of its key so far: (length, applications,
                        path length, (separator rank, tile) pairs) */
    int32_t chains_len, chains_cap, chains_mode;
    int32_t *lp_sep, *lp_tile; /* [2*depth_cap+2] chains mode: the label path of the chain being walked */
    int32_t lp_len;
    int32_t *acc_order; /* [key_cap] chains mode: the keys in the order a chain of each was first accepted */
    int32_t nacc;
    int32_t make_leaves; /* perft: make each leaf turn (1) or count the last ply in bulk (0) */
    int32_t *pk_chk; /* [2*nchk] each application's checks as (tile, mask row * nd), in the order fits reads them */
    int32_t *es, *es_off; /* entry streams: entry i (of ent_app) at es[es_off[i]..es_off[i+1]) as [application, 2 * its
                             checks, 1 where fits_tail or a count condition (``if``) must be read too, then its checks
                             as pk_chk's]: a row's entries read in one pass over memory */
    uint8_t *leaf;  /* [napps] no links, no safe cells, each tile written once: a turn of its own (step_leaf) */
    uint8_t *cond_leaf; /* [napps] a leaf but for its links, each followed only while its conditions hold: a turn of
                           its own where none does (step_cond_leaf) */
    uint8_t *solo;  /* [napps] a leaf whose turn no other chain of the same node can have (solo_apps) */
    uint8_t *once;  /* [nlinks] a table link of an entry whose two-move chains come in both orders (once_links): the
                       follow-ups on tiles before the entry's are not walked, the other order gives their turns */
    uint8_t *paired; /* [nlinks] a link whose follow-ups a count's last ply counts where they fit, made only where the
                        count makes its leaves (paired_links): each its own turn */
    int32_t *pair_code; /* [nlinks] with paired 1, the code every follow-up reads where each is a single cell reading it
                           (one_cell), one a tile: counted as popcounts of that code's tiles in pair_bits; else -1 */
    int32_t *pair_write; /* [nlinks] with pair_code, the code every follow-up writes where they write one, else -1 */
    uint64_t *pair_bits; /* [nlinks*words] those follow-ups' tiles; NULL where no link has a pair_code */
    uint8_t *apart; /* [nlinks] a table link of a slide whose chains of two slides come in both orders where their tiles
                       are apart (apart_slides): a second slide on a tile before the first's start whose reach misses
                       the first's tiles is not walked, the other order gives its turns; NULL where no link is */
    uint64_t *reach; /* [napps*words] with apart: the tiles a second slide and its continuations check or write */
    uint64_t *apart_fa; /* [words] with apart: the tiles the first slide of the chain at hand checks or writes */
    int32_t *apart_fc; /* [3n] with apart: the first slide's changes since the node, as collect_changes sorts them,
                          where its apart second slides are counted on the codes (apart_step) */
    int32_t apart_nfc; /* their number */
    int32_t apart_fr; /* the counter resets of the first slide's moves (read where count_turn reads resets) */
    uint8_t *meet_ok; /* [napps] a slide step whose writes, and its continuations' (list links only), are on its own
                         tile and its `to` tile, each a change (writes_change): apart_second, apart_meet */
    /* A node's apart second slides (apart_second): each entry step's chain ends on the node's codes, walked once per
       node (ac_gen, new at each node_turns_in and pick_turn) and replayed after each first slide apart from it:
       ac_stamp [napps] (ac_gen: walked), ac_first, ac_num [napps] its ends' records (ac_num -1: more than fit, walked
       each time), a record's hash change, counter resets, and changes (ac_coff into ac_chg, ac_nc of them: tile,
       new, old, sorted by tile); ac_rec 1 while apart_step records, from seq height ac_seq */
    uint32_t *ac_stamp, ac_gen;
    int32_t *ac_first, *ac_num, *ac_reset, *ac_coff, *ac_nc, *ac_chg;
    uint64_t *ac_hash;
    int32_t ac_n, ac_cap, ac_nchg, ac_chg_cap, ac_rec, ac_seq, ac_over;
    int64_t ac_used; /* how many chain ends apart_second counted from its records since tp_new (for tests) */
    uint64_t *cond_rbits; /* [nconds*words] a condition counting its codes over a region (no lines, here or around):
                             the region's tiles, read by ended as bit sets; zero rows for the others */
    uint8_t *cond_region; /* [nconds] 1 where cond_rbits holds the condition's region */
    int32_t *ec_off;  /* [nends+1] -> ec_rows: the (rule, player) pairs of a count end rule that apply (pmask 1) */
    int32_t *ec_rows; /* [3*nends*np] per pair: its conditions end_conds[k0 .. k1), and its row of ec_bits, -1 where
                         each read reads them all (a condition not a count over a region, a royal test or a rule read
                         after the phases) */
    uint64_t *ec_bits; /* [nends*np*words] per pair of a row: the union of its conditions' regions (end_conds_touched) */
    int32_t solo_ready; /* solo filled (at the first perft: other jobs do not read it) */
    int32_t solo_on;    /* the node's leaf turns of solo applications are counted in solo_legal, with no key */
    int32_t plain_on;   /* and those of plain solo ones (SOLO_PLAIN), counted (and made) in the entry scan */
    uint64_t *plain_mask; /* [classes*words] per entry set whose every entry is a plain solo (solo_plain), per class of
                             its entries alike in code, write and conditions, the tiles where one starts (a count is
                             popcounts, a made count writes each leaf: paired_leaf); NULL none */
    int32_t *plain_off;   /* [sets+1] each set's classes */
    int32_t *plain_code;  /* [classes] the code its entries read */
    int32_t *plain_app;   /* [classes] one of its entries (the conditions they share) */
    uint8_t *plain_set;   /* [sets] 1 where the classes hold the set */
    int32_t *plain_new;   /* [classes] the code its entries write on the code they read (a made leaf: paired_leaf) */
    int32_t plain_any;    /* some application is a plain solo */
    /* shut cells (shut_cells): per entry set whose every entry is a single cell counted alone (SOLO_ALONE) reading its
       row's code, with conditions the same wherever it stands, whose links each read one condition on lines through
       its tile that fails where no such line is full (the mill game's placement: a man, a removal after a mill), per
       class of entries alike in code and conditions the tiles where one starts; a count's last ply counts (or makes)
       them by these away from the tiles where a line lacks at most that tile (shut_near), and walks the rest */
    uint8_t *shut_set;    /* [sets] 1 where the classes hold the set; NULL none */
    int32_t *shut_off;    /* [sets+1] each set's classes */
    int32_t *shut_code;   /* [classes] the code its entries read */
    int32_t *shut_new;    /* [classes] the code they write */
    int32_t *shut_app;    /* [classes] one of its entries (the conditions they share) */
    uint64_t *shut_mask;  /* [classes*words] */
    int32_t *shut_cond_off, *shut_cond; /* [sets+1], the set's links' conditions, each once */
    int32_t *shut_line_off, *shut_line; /* [nlsets+1], each line set's lines (lset_tiles offsets), each once */
    uint64_t *shut_tiles; /* [2*words] shut_near's tiles and the condition's codes' tiles */
    uint64_t *shut_lmask; /* [lines] on a board of one word, each line of shut_line as a tile set; NULL else */
    /* shut steps (shut_steps): entries of several writes counted alone (cond_leaf) whose links each read one
       condition on lines through the tile at hand that fails where no such line is full, and whose writes elsewhere
       put none of the condition's codes (the mill game's step of a man): away from the tiles where a line lacks at
       most that tile (shut_near on the node), a count by hash counts such a step by the hash of the position after
       it, unwritten (step_cond_leaf) */
    uint8_t *sstep;       /* [napps] 1 for a shut step; NULL none */
    uint8_t *sstep_set;   /* [sets] 1 where the set has one */
    int32_t *sstep_cond_off, *sstep_cond; /* [sets+1], the set's shut steps' links' conditions, each once */
    uint64_t *sstep_near; /* [2*words] the node's tiles where a shut step's links may open, and scratch */
    int32_t sstep_node;   /* sstep_near holds the node's (node_turns_in's scan, a count by hash) */
    uint8_t *cfol;        /* [napps] 1 for a closed follow-up (closed_follows): a later move of a chain counted by
                             the hash of the position after it, unwritten (closed_follow); NULL none */
    int32_t shut_keys;    /* a perft's inner node (perft): its shut cells away from those tiles keyed straight */
    int32_t plain_keys;   /* a perft's inner node (perft): its plain solos (solo_plain's classes) keyed straight */
    int32_t *bl_off, *bl_app; /* where the rule set has a step budget: per steps left L (0..steps) the link tables'
                                 rows (ltab_off, ltab_app) with only the applications costing at most L, in their
                                 order (budget_rows); NULL none */
    uint8_t *bl_any;          /* [(steps+1)*nltab] 1 where table tb has an application costing at most L */
    uint8_t *plain_tiles; /* [n] 1 where a plain solo writes (moves_idle) */
    int32_t *lnk_hl;      /* [nlinks] the link's one condition where it counts lines through the tile at hand (a
                             here line, cond_holds's count one tile_counts), else -1 (link_open) */
    int32_t solo_legal;
    /* a bulk count's last ply (and a playout's node) told apart by hash (count_turn): each complete chain's turn
       counted by the hash of (start, end, the position after it), no key, no sorted list of changes.  cnt_dup 0:
       a hash seen twice at a node sends it (and the engine's later ones) to 1, where the first chain of each hash
       leaves a witness (its start, end, resets and the tiles it wrote with their codes after it) that a later chain
       of the same hash is compared with: the same turn again is not counted; two turns alike by hash (or one turn
       whose chains reset different counters) send the node and the later ones to 2, keys */
    uint64_t *cnt_hash; /* [ht_size] */
    uint32_t *cnt_stamp; /* [ht_size] */
    int32_t *cnt_woff;  /* [ht_size] the slot's witness in cnt_wit */
    int32_t *cnt_order; /* [ht_size] the slot of the node's i-th turn counted (-1 - k: the k-th of a paired link's
                           turns after its entry, counted without a hash: paired_pick; SHUT_RANK: a shut cell's turn,
                           its entry's own, counted without a hash: pick_turn; SSTEP_RANK: a shut step's, by hash) */
    int32_t *cnt_wit;   /* [wit_cap] witnesses: start, end, resets, len, (tile, code) * len; len < 0: -1 - len
                           pairs, then a quick follow-up whose writes hold the node's new values (quick_leaf) */
    int32_t cnt_nwit, wit_cap;
    uint32_t cnt_gen;
    int32_t cnt_on, cnt_n, cnt_dup; /* cnt_dup: 0 hashes, 1 hashes and witnesses, 2 keys */
    int32_t cnt_find; /* a playout's pick: the index of the picked turn among those counted (-1: counting) */
    int32_t cnt_key;  /* the picked turn's key */
    int32_t *cnt_ent, *cnt_upto; /* [nent] the node's entries walked in order, and the turns counted after each */
    int32_t cnt_nent;
    int32_t *cn;    /* [3n] the node's clean-ups' net writes (tile, code, old code), by tile */
    int32_t cn_len;
    int32_t quiet_apart; /* a specialised perft counts the quiet moves itself: the walk leaves them out */
    /* ways mode (perft --rbg, perft.play_paths): a node's turns counted once per way of playing them, a way being a
       key with the order in which its chains first write the tiles they change (and the block moves they place) */
    int32_t ways_mode;
    int32_t *ord;       /* [n + depth_cap] one chain's order: tiles, and -1 - app_block_sig of a block move */
    int32_t *way_key, *way_off, *way_len; /* [key_cap] the node's ways */
    uint8_t *way_flag;  /* [key_cap] the first chain of the way holds a mandatory class (play_paths' setdefault) */
    int32_t *way_most;  /* [key_cap] the moves of the maximum rule's classes in the way's first chain */
    uint64_t *way_hash; /* [key_cap] */
    int32_t *way_seq;   /* [chg_cap] the ways' orders */
    int32_t nways, nwseq;
    int32_t *way_ht;    /* [ht_size] way ids (open addressing) */
    uint32_t *way_ht_gen;
    uint32_t way_gen;
    int32_t *ctr;   /* [depth_cap*nctr] the counters of each perft level (a playout's in its first row) */
    int32_t ctr_top; /* the current level's row */
    int32_t *lt_off, *lt_line; /* [nends*n+1], lines: row e*n + u lists the lines (line_tiles offsets) of end rule e
                                  through tile u, so that a line end is read only where the last turn wrote */
    /* a count's last ply told apart by start and end (pair_ready): where every two chains of a node from one tile to
       one tile make one turn, a turn is counted by a stamp of (start, end), and a follow-up without links whose
       (start, end) is stamped is not walked */
    int32_t pair_state; /* 0 not read yet, 1 no, 2 yes (the first perft reads it) */
    int32_t pair_on;    /* the node's count is by (start, end) */
    uint32_t *pair_stamp; /* [n*n] */
    int32_t *pair_ord;    /* [n*n] the node's turns in the order counted, each as start * n + end (a playout picks) */
    uint32_t pair_gen;
    /* where pair_hops proved it (chains of moves that only carry the piece): a chain's board at its end tile is the
       same whatever its path, so a follow-up with links to a tile whose follow-ups the node's walk from that start has
       walked already (hop_stamp, set when a walk from there finished) is not walked again */
    int32_t pair_hops;
    uint32_t *hop_stamp; /* [n*n] */
    uint32_t hop_gen;
    int32_t hop_fast;    /* a count whose chains from an entry with links are found by hop_flood (hop_fast_for) */
    int32_t hop_keys;    /* a perft's inner node whose carried pieces' turns are keyed by (start, end), found by
                            hop_flood (hop_keys_for) */
    int32_t hop_order;   /* with hop_fast: found by hop_post instead, in the chain walk's order (pair_locate) */
    /* link target k (of tgt) packed for hop_flood and hop_post as [its application, its `to` tile, 2 * checks, then
       its pk_chk pairs], from hop_fu_off[k] (hop_pack): a follow-up's record read in one pass over memory */
    int32_t *hop_fu, *hop_fu_off; /* [ntgt * 3 + 2 * nchk], [ntgt + 1] */
    int32_t *hop_stk;    /* [n] hop_flood's applications to read the follow-ups of */
    uint64_t *pair_cw;    /* [np*words] per player, the tiles the turn clean-ups may write (all where one captures) */
    /* a perft's count in any order (pair_any, with pair_on): the entries found from a trigger each (pair_triggers),
       row (set*n + u)*nd + c of trig_off listing those whose trigger is tile u holding code c, each with its row's
       tile and code (trig_at, trig_code); trig_codes the codes some trigger of the set reads */
    int32_t pair_any;
    int32_t *pair_tcnt; /* [n] a playout's node: its turns by start tile (pair_locate) */
    int32_t *trig_off, *trig_ent, *trig_at, *trig_code; /* [nsets*n*nd+1], [nent] x 3 */
    int32_t *trig_code_off, *trig_codes;                /* [nsets+1], [nsets*nd] */
    /* quick follow-ups (quick_tables, quick_leaf): a follow-up without links, captures, slide or clean-ups, each tile
       written once, counted by hash from its writes' hash delta, its writes made only where the general step must
       compare (a hash seen at the node); qk[a] its index (-1: none), qk_tiles its tiles written or read by a write,
       qk_wr those written, qk_delta its delta on the node's board where none of those tiles changed since the node
       (stamp qk_stamp == qk_node, the node counted: qk_cnt_gen) */
    int32_t *qk;
    uint64_t *qk_tiles, *qk_wr, *qk_delta, *qk_stamp;
    uint8_t *qk_same;  /* [quick] its writes leave the node's codes as they were (with qk_delta) */
    int32_t *qk_nv;    /* [writes] a quick follow-up's new values with qk_delta (by write, as wr_tile) */
    uint8_t *qk_free;  /* [quick] each of its checks accepts every code: it fits wherever it is placed */
    uint64_t qk_node;
    uint32_t qk_cnt_gen;

    /* a count's chains written on the codes alone (raw_ready): where no follow-up, link or per-move clean-up reads
       the board's counts or tile sets, a chain's writes leave them and the hash as at the node until its turn clean-ups
       run (raw_sync brings them level for those and back; raw_stands compares the path's positions without it) */
    int32_t raw_ok; /* the rule set allows it (pair_ready) */
    int32_t raw;    /* the chain walked now is written so (walk_entry) */
    int32_t *raw_w; /* [n] how many of the chain's writes (put_raw) are on each tile */
};

/* ---- small helpers --------------------------------------------------------------------- */

static uint64_t splitmix(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static uint32_t next_gen(uint32_t *gen, uint32_t *stamps, size_t n) {
    if (++*gen == 0) {
        memset(stamps, 0, n * sizeof *stamps);
        *gen = 1;
    }
    return *gen;
}

static inline int compare(int64_t n, int32_t op, int64_t v) {
    switch (op) {
    case 0: return n >= v;
    case 1: return n <= v;
    case 2: return n == v;
    case 3: return n != v;
    case 4: return n > v;
    default: return n < v;
    }
}

/* 1 when condition c reads no tile at hand (no here, no around; a disjunction: none of its alternatives): its answer
   the same wherever the move it guards stands. */
static int cond_tile_free(const tp_tables *t, int32_t c) {
    if (t->cond_kind[c] == COND_ANY) {
        for (int32_t k = t->cond_any_off[c]; k < t->cond_any_off[c + 1]; k++)
            if (!cond_tile_free(t, t->cond_any[k])) return 0;
        return 1;
    }
    return !t->cond_here[c] && !t->cond_around[c];
}

static inline void set_tile(const tp_engine *E, Board *B, int32_t u, int32_t v) {
    int32_t old = B->codes[u];
    const uint64_t *z = E->zob + (size_t)u * (size_t)TABLES(E)->nd;
    uint64_t bit = 1ULL << (u & 63);
    size_t w = (size_t)(u >> 6);
    B->hash ^= z[old] ^ z[v];
    B->count[old]--;
    B->count[v]++;
    B->bits[(size_t)old * (size_t)E->words + w] &= ~bit;
    B->bits[(size_t)v * (size_t)E->words + w] |= bit;
    B->codes[u] = v;
}

static inline int put(tp_engine *E, Board *B, int32_t u, int32_t v) {
    if (E->undo_top >= E->undo_cap) return TP_ERR_CAP;
    E->undo_tile[E->undo_top] = u;
    E->undo_old[E->undo_top] = B->codes[u];
    E->undo_top++;
    set_tile(E, B, u, v);
    return 0;
}

static inline void restore(tp_engine *E, Board *B, int32_t mark) {
    while (E->undo_top > mark) {
        E->undo_top--;
        set_tile(E, B, E->undo_tile[E->undo_top], E->undo_old[E->undo_top]);
    }
}

/* put on the codes alone (E->raw: the hash, counts and tile sets stay the node's; raw_stands, raw_sync). */
static inline void put_raw(tp_engine *E, Board *B, int32_t u, int32_t v) {
    E->undo_tile[E->undo_top] = u;
    E->undo_old[E->undo_top++] = B->codes[u];
    E->raw_w[u]++;
    B->codes[u] = v;
}

/* restore for a step's writes: on the codes alone where the chain is written so (E->raw). */
static inline void unwrite(tp_engine *E, Board *B, int32_t mark) {
    if (!E->raw) {
        restore(E, B, mark);
        return;
    }
    while (E->undo_top > mark) {
        int32_t u = E->undo_tile[--E->undo_top];
        B->codes[u] = E->undo_old[E->undo_top];
        E->raw_w[u]--;
    }
}

/* The hash, counts and tile sets of a board whose undo entries from..to were written on the codes alone (put_raw):
   each tile's change from its code before them (its first entry's) to its code now applied (dir 1) or taken back
   (-1). */
static void raw_sync(tp_engine *E, Board *B, int32_t from, int32_t to, int dir) {
    uint32_t g = next_gen(&E->tgen, E->tstamp, (size_t)TABLES(E)->n);
    size_t words = (size_t)E->words;
    for (int32_t j = from; j < to; j++) {
        int32_t u = E->undo_tile[j], old = E->undo_old[j], now = B->codes[u];
        if (E->tstamp[u] == g) continue;
        E->tstamp[u] = g;
        if (old == now) continue;
        int32_t o = dir > 0 ? old : now, v = dir > 0 ? now : old;
        uint64_t bit = 1ULL << (u & 63);
        const uint64_t *z = E->zob + (size_t)u * (size_t)TABLES(E)->nd;
        B->hash ^= z[o] ^ z[v];
        B->count[o]--;
        B->count[v]++;
        B->bits[(size_t)o * words + (size_t)(u >> 6)] &= ~bit;
        B->bits[(size_t)v * words + (size_t)(u >> 6)] |= bit;
    }
}

/* Counts, tile sets and hash of a board whose codes were just filled in. */
static void recount(const tp_engine *E, Board *B) {
    memset(B->count, 0, (size_t)TABLES(E)->nd * sizeof *B->count);
    memset(B->bits, 0, (size_t)TABLES(E)->nd * (size_t)E->words * sizeof *B->bits);
    for (int32_t u = 0; u < TABLES(E)->n; u++) {
        B->count[B->codes[u]]++;
        B->bits[(size_t)B->codes[u] * (size_t)E->words + (size_t)(u >> 6)] |= 1ULL << (u & 63);
    }
    B->hash = 0;
}

static int32_t captures(const tp_tables *T, const int32_t *codes, int32_t a, int32_t *out, int32_t *nout);
static int32_t group_captures(tp_engine *E, const int32_t *codes, int32_t a, int32_t *out, int *own_free);
static int group_fits(tp_engine *E, const int32_t *codes, int32_t a);

/* The part of Compiled.fits after the pattern checks: the captures a line capture or a capture by liberties needs. */
static inline int fits_tail(const tp_engine *E, const int32_t *codes, int32_t a) {
    const tp_tables *T = TABLES(E);
    if (T->app_ray_off[a + 1] > T->app_ray_off[a] && captures(T, codes, a, NULL, NULL) < T->app_need[a]) return 0;
    if (T->app_gc[a] >= 0 && !T->gc_suicide[T->app_gc[a]] && !group_fits((tp_engine *)E, codes, a)) return 0;
    return 1;
}

/* fits' pattern checks alone: fits where the move has no line capture or capture by liberties. */
static inline int pattern_fits(const tp_engine *E, const int32_t *codes, int32_t a) {
#ifdef TP_GEN_PATTERN
    (void)E;
    return TP_GEN_PATTERN(codes, a);
#else
    const uint8_t *masks = TABLES(E)->masks;
    const int32_t *c = E->pk_chk + 2 * (size_t)TABLES(E)->chk_off[a], *c1 = E->pk_chk + 2 * (size_t)TABLES(E)->chk_off[a + 1];
    for (; c < c1; c += 2)
        if (!masks[(size_t)c[1] + (size_t)codes[c[0]]]) return 0;
    return 1;
#endif
}

/* Compiled.fits, over the checks as tp_new packs them: (tile, offset of the mask row), the most selective first
   and the move's own tile last (an entry or a link target is placed where its piece stands). */
static inline int fits(const tp_engine *E, const int32_t *codes, int32_t a) {
    return pattern_fits(E, codes, a) && fits_tail(E, codes, a);
}

/* ---- captures by liberties (Compiled.group_captures) ------------------------------------------------ */

static int32_t after_pattern(const tp_tables *T, const int32_t *codes, int32_t a, int32_t u);

/* Whether the group of `in` tiles holding tile t has a liberty (a neighbour in `lib`), read after application a's
   pattern writes: a flood from t, stopped at the first liberty. */
static int group_free(tp_engine *E, const int32_t *codes, int32_t a, int32_t t, const uint8_t *in, const uint8_t *lib) {
    const tp_tables *T = TABLES(E);
    uint32_t g = next_gen(&E->cgen, E->cseen, (size_t)T->n);
    int32_t top = 0;
    E->cseen[t] = g;
    E->cstack[top++] = t;
    while (top) {
        int32_t u = E->cstack[--top];
        for (int32_t j = T->nbr_off[u]; j < T->nbr_off[u + 1]; j++) {
            int32_t w = T->nbr[j], c = after_pattern(T, codes, a, w);
            if (lib[c]) return 1;
            if (E->cseen[w] != g && in[c]) {
                E->cseen[w] = g;
                E->cstack[top++] = w;
            }
        }
    }
    return 0;
}

/* The tiles application a's capture by liberties takes (groups next to its tile without a liberty, read after its
   pattern writes) into out, their number; with own_free, whether the mover's group at its tile has a liberty. */
static int32_t group_captures(tp_engine *E, const int32_t *codes, int32_t a, int32_t *out, int *own_free) {
    const tp_tables *T = TABLES(E);
    size_t nd = (size_t)T->nd;
    int32_t s = T->app_gc[a], t = T->app_tile[a], nout = 0;
    const uint8_t *foe = T->masks + (size_t)T->gc_foe[s] * nd, *lib = T->masks + (size_t)T->gc_lib[s] * nd;
    uint32_t g = next_gen(&E->cgen, E->cseen, (size_t)T->n);
    for (int32_t k = T->nbr_off[t]; k < T->nbr_off[t + 1]; k++) {
        int32_t v = T->nbr[k];
        if (E->cseen[v] == g || !foe[after_pattern(T, codes, a, v)]) continue;
        int32_t i0 = nout, i = nout, free = 0;
        E->cseen[v] = g;
        out[nout++] = v;
        while (i < nout) {
            int32_t u = out[i++];
            for (int32_t j = T->nbr_off[u]; j < T->nbr_off[u + 1]; j++) {
                int32_t w = T->nbr[j], c = after_pattern(T, codes, a, w);
                if (lib[c]) free = 1;
                else if (E->cseen[w] != g && foe[c]) {
                    E->cseen[w] = g;
                    out[nout++] = w;
                }
            }
        }
        if (free) nout = i0; /* not captured; its tiles stay seen */
    }
    if (own_free) {
        const uint8_t *own = T->masks + (size_t)T->gc_own[s] * nd;
        *own_free = own[after_pattern(T, codes, a, t)] && group_free(E, codes, a, t, own, lib);
    }
    return nout;
}

/* Whether application a stands where suicide is not allowed (group_captures's tiles or its own group's liberty),
   read the cheap way first: its own group's liberty (a liberty next to its tile, most often), then the groups next
   to it, each flood stopped at its first liberty. */
static int group_fits(tp_engine *E, const int32_t *codes, int32_t a) {
    const tp_tables *T = TABLES(E);
    size_t nd = (size_t)T->nd;
    int32_t s = T->app_gc[a], t = T->app_tile[a];
    const uint8_t *foe = T->masks + (size_t)T->gc_foe[s] * nd, *lib = T->masks + (size_t)T->gc_lib[s] * nd;
    const uint8_t *own = T->masks + (size_t)T->gc_own[s] * nd;
    if (own[after_pattern(T, codes, a, t)] && group_free(E, codes, a, t, own, lib)) return 1;
    for (int32_t k = T->nbr_off[t]; k < T->nbr_off[t + 1]; k++) {
        int32_t v = T->nbr[k];
        if (foe[after_pattern(T, codes, a, v)] && !group_free(E, codes, a, v, foe, lib)) return 1;
    }
    return 0;
}

/* ---- line captures (Compiled.captures) ----------------------------------------------------------- */

/* The code of tile u after application a's own pattern writes (every source read before any write). */
static inline int32_t after_pattern(const tp_tables *T, const int32_t *codes, int32_t a, int32_t u) {
    for (int32_t k = T->wr_off[a]; k < T->wr_off[a + 1]; k++)
        if (T->wr_tile[k] == u) return T->maps[(size_t)T->wr_map[k] * (size_t)T->nd + (size_t)codes[T->wr_src[k]]];
    return codes[u];
}

/* The runs application a's line capture takes on `codes` (read after its pattern writes, every direction on the
   same position): their number; with `out`, the captured (tile, dense code) pairs, *nout of them. */
static int32_t captures(const tp_tables *T, const int32_t *codes, int32_t a, int32_t *out, int32_t *nout) {
    size_t nd = (size_t)T->nd;
    const uint8_t *over = T->masks + (size_t)T->app_over[a] * nd, *until = T->masks + (size_t)T->app_until[a] * nd;
    int32_t runs = 0, m = 0;
    for (int32_t r = T->app_ray_off[a]; r < T->app_ray_off[a + 1]; r++) {
        int32_t t0 = T->ray_tile_off[r], len = T->ray_tile_off[r + 1] - t0;
        int32_t last = T->ray_loop[r] ? len - 1 : len, i = 0;
        while (i < last && over[after_pattern(T, codes, a, T->ray_tiles[t0 + i])]) i++;
        if (i > 0 && i < len && until[after_pattern(T, codes, a, T->ray_tiles[t0 + i])]) {
            runs++;
            if (out)
                for (int32_t j = 0; j < i; j++, m++) {
                    out[2 * m] = T->ray_tiles[t0 + j];
                    out[2 * m + 1] = T->ray_code[t0 + j];
                }
        }
    }
    if (nout) *nout = m;
    return runs;
}

/* Compiled.new_values into E->nv (every source read before any write); returns the count. */
static inline int32_t new_values(tp_engine *E, const Board *B, int32_t a) {
#ifdef TP_GEN_WRITES
    return TP_GEN_WRITES(E->nv, B->codes, a);
#endif
    const tp_tables *T = TABLES(E);
    int32_t w0 = T->wr_off[a], w1 = T->wr_off[a + 1];
    for (int32_t k = w0; k < w1; k++)
        E->nv[k - w0] = T->maps[(size_t)T->wr_map[k] * (size_t)T->nd + (size_t)B->codes[T->wr_src[k]]];
    return w1 - w0;
}

/* ---- conditions and clean-ups (chains.conditions_hold, Chains.run_cleanups) ---------------- */

/* Whether tile u counts for condition c (Compiled.count): it holds one of the condition's codes (mask m) and, for a
   condition on lines, lies on such a line of cond_line tiles (on none, with cond_outside). */
static int tile_counts(const tp_engine *E, const Board *B, int32_t c, const uint8_t *m, int32_t u) {
    const tp_tables *T = TABLES(E);
    if (!m[B->codes[u]]) return 0;
    if (!T->cond_line[c]) return 1;
    int32_t k = T->cond_line[c], on = 0;
    const int32_t *row = T->lset_off + (size_t)T->cond_lset[c] * (size_t)T->n + (size_t)u;
    for (int32_t j = row[0]; j < row[1] && !on; j++) {
        const int32_t *line = T->lset_tiles + T->lset_line[j];
        int32_t i = 0;
        while (i < k && m[B->codes[line[i]]]) i++;
        on = i == k;
    }
    return on != T->cond_outside[c];
}

/* The count of a condition on lines or on the tile at hand (`here`: the tile a here condition reads, -1 none), as
   far as cond_holds needs it: the tiles are counted until the count reaches the least that decides the condition's
   comparison (the count only grows: for >= and < its value, for the others one more), so a condition on lines over
   the whole board ("no man of the opponent outside a mill": == 0) stops at the first tile that counts. */
static int64_t count_tiles(const tp_engine *E, const Board *B, int32_t c, int32_t here) {
    const tp_tables *T = TABLES(E);
    const uint8_t *m = T->masks + (size_t)T->cond_mask[c] * (size_t)T->nd;
    int32_t k0 = T->cond_tile_off[c], k1 = T->cond_tile_off[c + 1], op = T->cond_op[c];
    int64_t count = 0, stop = op == 0 || op == 5 ? T->cond_value[c] : (int64_t)T->cond_value[c] + 1;
    if (T->cond_here[c]) {
        if (here < 0) return 0;
        int in = T->cond_kind[c] != COND_REGION;
        for (int32_t k = k0; k < k1 && !in; k++) in = T->cond_tiles[k] == here;
        return in ? tile_counts(E, B, c, m, here) : 0;
    }
    if (T->cond_kind[c] == COND_REGION)
        for (int32_t k = k0; k < k1 && count < stop; k++) count += tile_counts(E, B, c, m, T->cond_tiles[k]);
    else
        for (int32_t u = 0; u < T->n && count < stop; u++) count += tile_counts(E, B, c, m, u);
    return count;
}

/* The count of a condition around the tile at hand: its neighbours holding the condition's codes (in its region
   where it has one). */
static int64_t count_around(const tp_engine *E, const Board *B, int32_t c, int32_t here) {
    const tp_tables *T = TABLES(E);
    if (here < 0) return 0;
    const uint8_t *m = T->masks + (size_t)T->cond_mask[c] * (size_t)T->nd;
    int32_t k0 = T->cond_tile_off[c], k1 = T->cond_tile_off[c + 1];
    int64_t count = 0;
    for (int32_t j = T->ar_off[here]; j < T->ar_off[here + 1]; j++) {
        int32_t u = T->ar[j];
        if (!m[B->codes[u]]) continue;
        int in = T->cond_kind[c] != COND_REGION;
        for (int32_t k = k0; k < k1 && !in; k++) in = T->cond_tiles[k] == u;
        count += in;
    }
    return count;
}

static int cond_holds(const tp_engine *E, const Board *B, int32_t c, int32_t here) {
    const tp_tables *T = TABLES(E);
    int64_t count = 0;
    if (T->cond_kind[c] == COND_ANY) { /* a disjunction: one of its alternatives holds */
        for (int32_t k = T->cond_any_off[c]; k < T->cond_any_off[c + 1]; k++)
            if (cond_holds(E, B, T->cond_any[k], here)) return 1;
        return 0;
    }
    if (T->cond_kind[c] == COND_MISSING) return 0;
    if (T->cond_around[c]) {
        count = count_around(E, B, c, here);
    } else if (T->cond_here[c] || T->cond_line[c]) {
        count = count_tiles(E, B, c, here);
    } else if (T->cond_kind[c] == COND_BOARD) {
        for (int32_t k = T->cond_code_off[c]; k < T->cond_code_off[c + 1]; k++) count += B->count[T->cond_codes[k]];
    } else {
        const uint8_t *m = T->masks + (size_t)T->cond_mask[c] * (size_t)T->nd;
        for (int32_t k = T->cond_tile_off[c]; k < T->cond_tile_off[c + 1]; k++) count += m[B->codes[T->cond_tiles[k]]];
    }
    return compare(count, T->cond_op[c], T->cond_value[c]);
}

static inline int conds_hold(const tp_engine *E, const Board *B, const int32_t *conds, int32_t k0, int32_t k1, int32_t here) {
    const tp_tables *T = TABLES(E);
    for (int32_t k = k0; k < k1; k++) {
        int32_t c = conds[k];
        if (E->cond_count[c]) { /* a count over the whole board: the counts of its codes, summed */
            int64_t count = 0;
            for (int32_t i = T->cond_code_off[c]; i < T->cond_code_off[c + 1]; i++) count += B->count[T->cond_codes[i]];
            if (!compare(count, T->cond_op[c], T->cond_value[c])) return 0;
        } else if (!cond_holds(E, B, c, here)) {
            return 0;
        }
    }
    return 1;
}

/* A move's own count conditions (``if``, Compiled.fits); the tables hold none in rule sets with royal states or
   clean-ups, whose memo tracking does not read them. */
static inline int app_conds_hold(const tp_engine *E, const Board *B, int32_t a) {
    const tp_tables *T = &E->t;
    return T->app_cond_off[a + 1] == T->app_cond_off[a]
           || conds_hold(E, B, T->app_cond, T->app_cond_off[a], T->app_cond_off[a + 1], T->app_tile[a]);
}

/* The node's whole-board counts read by its entries' conditions, each read once (EntryMemo: up to 8, the others
   read each time). */
typedef struct {
    int32_t n, cond[8];
    uint8_t holds[8];
} EntryMemo;

/* app_conds_hold for entry a of the node's scan on the node's board B: a whole-board count (cond_count, the same
   for every entry of the node) read from the memo M, or read and kept there; the others as conds_hold reads them. */
static inline int entry_conds_hold(const tp_engine *E, const Board *B, int32_t a, EntryMemo *M) {
    const tp_tables *T = &E->t;
    for (int32_t k = T->app_cond_off[a]; k < T->app_cond_off[a + 1]; k++) {
        int32_t c = T->app_cond[k], i = 0;
        if (!E->cond_count[c]) {
            if (!conds_hold(E, B, T->app_cond, k, k + 1, T->app_tile[a])) return 0;
            continue;
        }
        while (i < M->n && M->cond[i] != c) i++;
        if (i == M->n) {
            int h = conds_hold(E, B, T->app_cond, k, k + 1, T->app_tile[a]);
            if (M->n == 8) {
                if (!h) return 0;
                continue;
            }
            M->cond[M->n] = c;
            M->holds[M->n++] = (uint8_t)h;
        }
        if (!M->holds[i]) return 0;
    }
    return 1;
}

/* Memo tracking: what a clean-up run or an attack test reads (conservatively: every check tile of an application
   it tries, both tiles of each write, and every code a trigger or condition counts). */
static void track_group(tp_engine *E, int32_t g) {
    const tp_tables *T = TABLES(E);
    uint32_t gen = E->cm_gen;
    for (int32_t k = T->grp_trig_off[g]; k < T->grp_trig_off[g + 1]; k++) E->cm_cread[T->grp_trig[k]] = gen;
    for (int32_t k = T->grp_cond_off[g]; k < T->grp_cond_off[g + 1]; k++) {
        int32_t c = T->grp_cond[k];
        for (int32_t i = T->cond_code_off[c]; i < T->cond_code_off[c + 1]; i++) E->cm_cread[T->cond_codes[i]] = gen;
        for (int32_t i = T->cond_tile_off[c]; i < T->cond_tile_off[c + 1]; i++) E->cm_tread[T->cond_tiles[i]] = gen;
    }
}

/* Tile u read by the tracked run: stamped for the clean-ups' memo, a bit for the royal test's. */
static inline void mark_read(tp_engine *E, int32_t u) {
    if (E->tracking == TRACK_CLEANUPS)
        E->cm_tread[u] = E->cm_gen;
    else
        E->at_rbits[u >> 6] |= 1ULL << (u & 63);
}

static void track_app(tp_engine *E, int32_t a) {
    const tp_tables *T = TABLES(E);
    for (int32_t k = T->chk_off[a]; k < T->chk_off[a + 1]; k++) mark_read(E, T->chk_tile[k]);
    for (int32_t k = T->wr_off[a]; k < T->wr_off[a + 1]; k++) {
        mark_read(E, T->wr_tile[k]);
        mark_read(E, T->wr_src[k]);
    }
    for (int32_t k = T->ray_tile_off[T->app_ray_off[a]]; k < T->ray_tile_off[T->app_ray_off[a + 1]]; k++)
        mark_read(E, T->ray_tiles[k]);
}

/* False only when no tile holds a code without which no application of the group fits. */
static inline int triggered(const tp_engine *E, const Board *B, int32_t g) {
    const tp_tables *T = TABLES(E);
    if (T->grp_always[g]) return 1;
    for (int32_t k = T->grp_trig_off[g]; k < T->grp_trig_off[g + 1]; k++)
        if (B->count[T->grp_trig[k]]) return 1;
    return 0;
}

/* next_trigger_tile where the group has no more tiles than trigger codes (grp_few): its tiles >= from read one by one,
   the first holding a trigger code (grp_tcode), or n.  Cost: a code read per tile of the group passed. */
static int32_t trigger_few(const tp_engine *E, const Board *B, int32_t g, int32_t from) {
    const tp_tables *T = TABLES(E);
    size_t words = (size_t)E->words;
    const uint8_t *tc = E->grp_tcode + (size_t)g * (size_t)T->nd;
    for (size_t w = (size_t)(from >> 6); w < words; w++) {
        uint64_t m = E->grp_bits[(size_t)g * words + w];
        if (w == (size_t)(from >> 6)) m &= ~0ULL << (from & 63);
        for (; m; m &= m - 1) {
            int32_t u = (int32_t)(w * 64 + (size_t)__builtin_ctzll(m));
            if (tc[B->codes[u]]) return u;
        }
    }
    return T->n;
}

/* The first tile >= from holding one of the group's trigger codes with applications keyed there, or n. */
static int32_t next_trigger_tile(const tp_engine *E, const Board *B, int32_t g, int32_t from) {
    const tp_tables *T = TABLES(E);
    size_t words = (size_t)E->words;
    if (E->grp_few[g]) return trigger_few(E, B, g, from);
    for (size_t w = (size_t)(from >> 6); w < words; w++) {
        uint64_t m = 0;
        for (int32_t k = T->grp_trig_off[g]; k < T->grp_trig_off[g + 1]; k++) m |= B->bits[(size_t)T->grp_trig[k] * words + w];
        m &= E->grp_bits[(size_t)g * words + w];
        if (w == (size_t)(from >> 6)) m &= ~0ULL << (from & 63);
        if (m) return (int32_t)(w * 64 + (size_t)__builtin_ctzll(m));
    }
    return T->n;
}

/* Applies the group's applications i0..i1 (in order) that fit; 1 when the conditions stop holding. */
static int cleanup_apps(tp_engine *E, Board *B, int32_t g, int32_t i0, int32_t i1, int *changed) {
    const tp_tables *T = TABLES(E);
    int32_t c0 = T->grp_cond_off[g], c1 = T->grp_cond_off[g + 1];
    for (int32_t i = i0; i < i1; i++) {
        int32_t a = T->grp_app[i];
        if (E->tracking) track_app(E, a);
        if (!fits(E, B->codes, a)) continue;
        int32_t nw = new_values(E, B, a);
        for (int32_t k = 0; k < nw; k++) {
            int32_t u = T->wr_tile[T->wr_off[a] + k];
            if (B->codes[u] != E->nv[k]) {
                if (put(E, B, u, E->nv[k]) < 0) return TP_ERR_CAP;
                if (E->tracking == TRACK_CLEANUPS) {
                    E->cm_tile[E->cm_len] = u; /* cm_len < undo_cap: one memo write per undo entry */
                    E->cm_code[E->cm_len++] = E->nv[k];
                }
                *changed = 1;
            }
        }
        if (*changed && c1 > c0 && !conds_hold(E, B, T->grp_cond, c0, c1, -1)) return 1;
    }
    return 0;
}

/* An indexed group visits only the tiles holding a trigger code, in tile order (the order of its applications),
   looking again after each tile: the applications it passes over are exactly those that would not fit.  Runs the
   groups g0 .. g1 (a player's turn clean-ups, or those after each move).  A round after the first ends, with the
   fixpoint, at the first group past the last one that changed the board in the round before, while this round has
   changed nothing: that group and those after it see the board they saw then, and change nothing again. */
static int run_groups(tp_engine *E, Board *B, int32_t g0, int32_t g1) {
    const tp_tables *T = TABLES(E);
    if (g0 == g1) return 0;
    int32_t last = g1; /* the last group that changed the board in the round before */
    for (int round = 0; round < MAX_CLEANUP_ROUNDS; round++) {
        int changed = 0;
        int32_t now = g1;
        for (int32_t g = g0; g < g1; g++) {
            if (!changed && g > last) return 0;
            int32_t c0 = T->grp_cond_off[g], c1 = T->grp_cond_off[g + 1];
            if (E->tracking == TRACK_CLEANUPS) track_group(E, g);
            if (!triggered(E, B, g)) continue;
            if (c1 > c0 && !conds_hold(E, B, T->grp_cond, c0, c1, -1)) continue;
            int r = 0, wrote = 0;
            if (!T->grp_indexed[g]) {
                r = cleanup_apps(E, B, g, T->grp_app_off[g], T->grp_app_off[g + 1], &wrote);
            } else {
                const int32_t *row = T->grp_tile_off + (size_t)g * (size_t)(T->n + 1);
                for (int32_t u = next_trigger_tile(E, B, g, 0); u < T->n && r == 0; u = next_trigger_tile(E, B, g, u + 1))
                    r = cleanup_apps(E, B, g, row[u], row[u + 1], &wrote);
            }
            if (r < 0) return r;
            if (wrote) {
                changed = 1;
                now = g;
            }
        }
        if (!changed) return 0;
        last = now;
    }
    return TP_ERR_FIXPOINT;
}

/* Chains.run_cleanups(when="turn") for player p. */
static inline int run_cleanups(tp_engine *E, Board *B, int32_t p) {
    const tp_tables *T = TABLES(E);
    return run_groups(E, B, T->grp_off[p], T->grp_off[p + 1]);
}

/* ---- the walk (Chains.walk) ------------------------------------------------------------------ */

static int finish(tp_engine *E, Walk *W, int32_t end, int32_t flagged);

/* True when the position equals the one at undo height `mark`: every tile written since then holds
   the code it held at that height (its old code at its first write after the mark). */
static int same_as_at(tp_engine *E, const Board *B, int32_t mark) {
    uint32_t g = next_gen(&E->tgen, E->tstamp, (size_t)TABLES(E)->n);
    for (int32_t j = mark; j < E->undo_top; j++) {
        int32_t u = E->undo_tile[j];
        if (E->tstamp[u] == g) continue;
        E->tstamp[u] = g;
        if (E->undo_old[j] != B->codes[u]) return 0;
    }
    return 1;
}

/* stands for a raw chain's step (E->raw: the board's hash is the node's), `fresh` 1 where the step put a new code on a
   tile no earlier move of the chain wrote: every position of the path holds the old code there, so it stands nowhere;
   else each level is compared tile by tile (same_as_at).  Defined after stands. */
static int raw_stands(tp_engine *E, const Walk *W, int fresh, int32_t *mid);

/* 1 when the position stands on the chain's path, with *mid the level where a slide flies on from it (-1 none: the
   position is a stop; a slide may only fly over it). */
static inline int stands(tp_engine *E, const Walk *W, int32_t *mid) {
    uint64_t h = W->b->hash;
    int seen = 0;
    *mid = -1;
    for (int32_t i = W->path_base; i < E->path_top; i++)
        if (E->path_hash[i] == h && same_as_at(E, W->b, E->path_undo[i])) {
            seen = 1;
            if (E->path_mid[i]) *mid = i;
        }
    return seen;
}

static int raw_stands(tp_engine *E, const Walk *W, int fresh, int32_t *mid) {
    int seen = 0;
    *mid = -1;
    for (int32_t i = W->path_base; !fresh && i < E->path_top; i++)
        if (same_as_at(E, W->b, E->path_undo[i])) {
            seen = 1;
            if (E->path_mid[i]) *mid = i;
        }
    return seen;
}

static inline int push_level(tp_engine *E, const Board *B) {
    if (E->path_top >= E->depth_cap) return TP_ERR_CAP;
    E->path_hash[E->path_top] = B->hash;
    E->path_undo[E->path_top] = E->undo_top;
    E->path_mid[E->path_top] = 0;
    E->path_top++;
    return 0;
}

static inline int touched(const Walk *W) {
    for (int32_t i = 0; i < W->ntargets; i++)
        if (W->b->codes[W->targets[i]] != W->target_base[i]) return 1;
    return 0;
}

static int32_t find_key(tp_engine *E, uint64_t h, int32_t start, int32_t end, int32_t nc);
static inline int32_t new_key(tp_engine *E, uint64_t h, int32_t start, int32_t end, int32_t nc);

/* The hash of a turn from `start` to `end` with the changes in E->tmp (find_key's where keys are told apart by hash). */
static inline uint64_t key_hash(const tp_engine *E, int32_t start, int32_t end, int32_t nc) {
    uint64_t seed = ((uint64_t)(uint32_t)start << 32) | (uint32_t)end;
    uint64_t h = splitmix(&seed);
    for (int32_t c = 0; c < nc; c++) h ^= E->zob[(size_t)E->tmp[3 * c] * (size_t)TABLES(E)->nd + (size_t)E->tmp[3 * c + 1]];
    return h;
}
static int attacked(tp_engine *E, Board *B, const int32_t *targets, int32_t nt, int32_t p);
static int attack_relevant(const tp_engine *E, int32_t nc);

/* A chain's counter resets joined into its key's (before the key is marked accepted). */
static inline void accept_resets(Key *K, int32_t bits) {
    K->reset_and = K->accepted ? K->reset_and & bits : bits;
    K->reset_or |= bits;
}

/* A chain's count of the maximum rule's moves joined into its key's (before the key is marked accepted). */
static inline void accept_most(Key *K, int32_t most) {
    if (!K->accepted || most < K->most_lo) K->most_lo = most;
    if (!K->accepted || most > K->most_hi) K->most_hi = most;
}

/* maximum.count_of: how many moves of the maximum rule's classes the walk's chain holds. */
static inline int32_t chain_most(const tp_engine *E, const Walk *W) {
    const tp_tables *T = TABLES(E);
    int32_t most = 0;
    for (int32_t i = W->seq_base; T->has_maximum && i < E->seq_top; i++) most += T->app_max[E->seq[i]];
    return most;
}

enum { FAST_NO = 3 }; /* step_leaf cannot answer: the general step runs */
/* E->solo's marks: a solo leaf (solo_apps, solo_by_changes); a plain one (solo_plain); an entry with links whose turn
   alone, where its links are closed, is its own (solo_by_changes: step_cond_leaf counts it without a hash) */
enum { SOLO_LEAF = 1, SOLO_PLAIN = 2, SOLO_ALONE = 4 };
/* cnt_order's mark of a shut cell's turn numbered without a hash (node_turns_in; a paired link's ranks are -1 - k,
   k below ht_size) */
#define SHUT_RANK INT32_MIN
/* cnt_order's mark of a shut step's turn (step_cond_leaf counted it unwritten, by hash): its entry's one turn, whose
   key pick_turn makes from the entry's writes (sstep_pick) */
#define SSTEP_RANK (INT32_MIN + 1)
static int paired_links(tp_engine *E);

/* The picked turn's key (changes in E->tmp, nc of them; the classes of its chain reset `resets`), then
   TP_ERR_FOUND: the walk unwinds to pick_turn. */
static int found_key(tp_engine *E, int32_t start, int32_t end, int32_t nc, int32_t resets) {
    int32_t k = new_key(E, 0, start, end, nc);
    if (k < 0) return k;
    Key *K = &E->keys[k];
    accept_resets(K, resets);
    K->pos_ok = K->accepted = K->legal = 1;
    E->cnt_key = k;
    return TP_ERR_FOUND;
}

/* The code tile u holds after the turn count_turn counts: the board's where the turn is written (nc < 0), else its
   change among the nc in E->tmp (sorted by tile), or the board's where it has none. */
static inline int32_t turn_code(const tp_engine *E, const Board *B, int32_t nc, int32_t u) {
    int32_t lo = 0, hi = nc;
    while (lo < hi) {
        int32_t mid = (lo + hi) / 2;
        if (E->tmp[3 * mid] < u) lo = mid + 1;
        else hi = mid;
    }
    return lo < nc && E->tmp[3 * lo] == u ? E->tmp[3 * lo + 1] : B->codes[u];
}

/* 1 when the turn count_turn counts (from `start` to `end`; written on the walk's board since its start, nc < 0, or
   its nc changes in E->tmp) is the one of the witness w: the same start and end, and the same position after it
   (each tile the witness wrote holds its code, each other tile the turn wrote its old one).  Cost: a step per write
   of each. */
static int same_turn(tp_engine *E, const Walk *W, int32_t start, int32_t end, int32_t nc, const int32_t *w) {
    const Board *B = W->b;
    if (w[0] != start || w[1] != end) return 0;
    uint32_t g = next_gen(&E->tgen, E->tstamp, (size_t)TABLES(E)->n);
    const int32_t *x = w + 4;
    int32_t len = w[3] < 0 ? -1 - w[3] : w[3];
    for (int32_t i = 0; i < len; i++, x += 2) {
        E->tstamp[x[0]] = g;
        if ((nc < 0 ? B->codes[x[0]] : turn_code(E, B, nc, x[0])) != x[1]) return 0;
    }
    if (w[3] < 0) { /* then quick follow-up x[0]'s writes, their new values the node's (quick_leaf) */
        const tp_tables *T = TABLES(E);
        for (int32_t k = T->wr_off[x[0]]; k < T->wr_off[x[0] + 1]; k++) {
            int32_t u = T->wr_tile[k];
            E->tstamp[u] = g;
            if ((nc < 0 ? B->codes[u] : turn_code(E, B, nc, u)) != E->qk_nv[k]) return 0;
        }
    }
    if (nc >= 0) { /* each change of the turn must be a tile the witness wrote */
        for (int32_t c = 0; c < nc; c++)
            if (E->tstamp[E->tmp[3 * c]] != g) return 0;
        return 1;
    }
    for (int32_t j = W->undo_base; j < E->undo_top; j++) { /* the first write of a tile holds its code at the node */
        int32_t u = E->undo_tile[j];
        if (E->tstamp[u] == g) continue;
        E->tstamp[u] = g;
        if (B->codes[u] != E->undo_old[j]) return 0;
    }
    return 1;
}

/* count_turn's witness of the new turn in slot i (as same_turn reads it); 1, or TP_ERR_CAP full. */
static int keep_witness(tp_engine *E, const Walk *W, int32_t i, int32_t start, int32_t end, int32_t resets,
                        int32_t nc) {
    int32_t len = nc >= 0 ? nc : E->undo_top - W->undo_base;
    if (E->cnt_nwit + 4 + 2 * len > E->wit_cap) return TP_ERR_CAP;
    E->cnt_woff[i] = E->cnt_nwit;
    int32_t *w = E->cnt_wit + E->cnt_nwit;
    w[0] = start;
    w[1] = end;
    w[2] = resets;
    w[3] = len;
    w += 4;
    if (nc >= 0) {
        for (int32_t c = 0; c < nc; c++, w += 2) {
            w[0] = E->tmp[3 * c];
            w[1] = E->tmp[3 * c + 1];
        }
    } else {
        for (int32_t j = W->undo_base; j < E->undo_top; j++, w += 2) {
            w[0] = E->undo_tile[j];
            w[1] = W->b->codes[w[0]];
        }
    }
    E->cnt_nwit += 4 + 2 * len;
    return 1;
}

/* New (start, end) stamps for a node's count: none counted, no tile's follow-ups walked. */
static inline void pair_fresh(tp_engine *E) {
    size_t nn = (size_t)TABLES(E)->n * (size_t)TABLES(E)->n;
    next_gen(&E->pair_gen, E->pair_stamp, nn);
    if (E->pair_hops) next_gen(&E->hop_gen, E->hop_stamp, nn);
}

/* 1 where the node's count (pair_on) of player p's turns may find the chains of an entry with links by hop_flood:
   pair_hops_hold proved them carried pieces, and p's turns have no clean-ups. */
static inline int hop_fast_for(const tp_engine *E, int32_t p) {
    const tp_tables *T = TABLES(E);
    return E->pair_on && E->pair_hops && !E->tracking && T->grp_off[p + 1] == T->grp_off[p]
           && T->mgrp_off[p + 1] == T->mgrp_off[p];
}

/* 1 where a perft's inner node of player p may key its turns from entries of carried pieces by (start, end) alone,
   found by hop_flood (hop_keyed): pair_ready and pair_hops_hold proved them, p's turns have no clean-ups, and no
   walk mode reads the chains. */
static inline int hop_keys_for(const tp_engine *E, int32_t p) {
    const tp_tables *T = TABLES(E);
    return E->pair_state == 2 && E->pair_hops && !E->tracking && !E->cnt_on && !E->ways_mode && !E->chains_mode
           && T->grp_off[p + 1] == T->grp_off[p] && T->mgrp_off[p + 1] == T->mgrp_off[p];
}

/* pair_on for the node about to be counted where the rule set allows it (pair_ready) and the count is by hash. */
static inline void pair_begin(tp_engine *E) {
    E->pair_on = E->cnt_on && E->pair_state == 2;
    if (E->pair_on) pair_fresh(E);
}

/* A count's turn from tile s to tile e where pair_on (two chains of the node from s to e make one turn): 1 the first
   (counted in cnt_n), 0 seen; while a playout picks (cnt_find >= 0), TP_ERR_FOUND at the picked turn's first chain. */
static inline int pair_count(tp_engine *E, int32_t s, int32_t e) {
    int32_t i = s * TABLES(E)->n + e;
    if (E->cnt_find >= 0) return E->pair_ord[E->cnt_find] == i ? TP_ERR_FOUND : 0;
    if (E->pair_stamp[i] == E->pair_gen) return 0;
    E->pair_stamp[i] = E->pair_gen;
    E->pair_ord[E->cnt_n++] = i;
    return 1;
}

/* 1 where pair_on in a bulk count and the chain walked (its writes on the board) changed a tile the mover's turn
   clean-ups never write: its position after them is not the node's, so it is a turn and needs no clean-ups to be
   counted.  Reads the chain's undo entries up to the first such tile (each tile by its first entry: the node's code). */
static int pair_kept(const tp_engine *E, const Walk *W) {
    if (!E->pair_on || !E->cnt_on || E->make_leaves || E->cnt_find >= 0) return 0;
    const uint64_t *cw = E->pair_cw + (size_t)W->player * (size_t)E->words;
    for (int32_t i = W->undo_base; i < E->undo_top; i++) {
        int32_t u = E->undo_tile[i], first = 1;
        if (cw[u >> 6] >> (u & 63) & 1 || W->b->codes[u] == E->undo_old[i]) continue;
        for (int32_t j = W->undo_base; first && j < i; j++) first = E->undo_tile[j] != u;
        if (first) return 1;
    }
    return 0;
}

/* 1 where pair_on in a count (not a playout's pick) and leaf application a (each tile written once), read on the
   position as the first move of a chain, writes a new code on a tile the mover's turn clean-ups never write: its turn
   is then counted by (start, end) at once, without sorting its changes, the clean-ups' memo or a hash; else 0. */
static int pair_leaf(tp_engine *E, const Walk *W, int32_t a) {
    const tp_tables *T = TABLES(E);
    if (!E->cnt_on || E->make_leaves || E->cnt_find >= 0 || E->tracking) return 0;
    const uint64_t *cw = E->pair_cw + (size_t)W->player * (size_t)E->words;
    const int32_t *codes = W->b->codes;
    for (int32_t k = T->wr_off[a]; k < T->wr_off[a + 1]; k++) {
        int32_t u = T->wr_tile[k];
        if (cw[u >> 6] >> (u & 63) & 1
            || T->maps[(size_t)T->wr_map[k] * (size_t)T->nd + (size_t)codes[T->wr_src[k]]] == codes[u])
            continue;
        pair_count(E, W->start, T->app_to[a]);
        return 1;
    }
    return 0;
}

/* 1 where pair_on and application b has no links and the node's count holds a turn from s to b's `to` tile already,
   or (pair_hops) b has links and the walk from s has walked the follow-ups on b's `to` tile already (hop_stamp): b's
   chains from s could only make turns counted already, so they are not walked (a playout's pick walks every chain). */
static inline int pair_seen(const tp_engine *E, int32_t s, int32_t b) {
    const tp_tables *T = TABLES(E);
    if (!E->pair_on || !E->cnt_on || E->cnt_find >= 0) return 0;
    size_t i = (size_t)s * (size_t)T->n + (size_t)T->app_to[b];
    if (T->lnk_off[b + 1] == T->lnk_off[b]) return E->pair_stamp[i] == E->pair_gen;
    return E->pair_hops && E->hop_stamp[i] == E->hop_gen;
}

/* A turn of the node counted without a key (cnt_on): `pos` the hash of the position after it (Board.hash), from
   `start` to `end` (start -1: keyed by its changes alone), its chain resetting the counters `resets`; the turn is
   written on the walk's board since its start (nc < 0) or its nc changes are in E->tmp (the board as at the node).
   Equal keys give equal hashes: a new hash is a new turn, counted.  A hash seen before is TP_ERR_DUP where the
   engine keeps no witnesses (cnt_dup 0: the node is counted again with them); with witnesses (cnt_dup 1) it is
   compared with the first turn of that hash (same_turn), the same turn again not counted, and TP_ERR_DUP where it
   is another turn (two turns alike by hash) or the same turn with other resets (the node is counted again with
   keys, which decide).  1 counted (a new turn), 0 seen, TP_ERR_CAP full.  While a playout picks (cnt_find >= 0:
   the index of the picked turn among those counted), TP_ERR_FOUND at the picked turn's first chain, else 0. */
static int count_turn(tp_engine *E, const Walk *W, uint64_t pos, int32_t start, int32_t end, int32_t resets,
                      int32_t nc) {
    if (E->pair_on) return pair_count(E, start, end);
    uint64_t h = pos;
    if (start >= 0) {
        uint64_t seed = ((uint64_t)(uint32_t)start << 32) | (uint32_t)end;
        h ^= splitmix(&seed);
    }
    int wit = E->cnt_dup > 0;
    if (E->cnt_find >= 0) { /* picking: the node's chains walked again up to the picked turn (without witnesses,
                               each hash of the node is one chain's) */
        int32_t s = E->cnt_order[E->cnt_find];
        if (s < 0) return 0; /* a paired link's turn (paired_pick finds it) */
        return E->cnt_hash[s] == h && (!wit || same_turn(E, W, start, end, nc, E->cnt_wit + E->cnt_woff[s]))
                   ? TP_ERR_FOUND : 0;
    }
    uint32_t mask = (uint32_t)E->ht_size - 1;
    for (uint32_t i = (uint32_t)(h ^ (h >> 32)) & mask;; i = (i + 1) & mask) {
        if (E->cnt_stamp[i] != E->cnt_gen) {
            if (2 * (E->cnt_n + 1) > E->ht_size) return TP_ERR_CAP;
            E->cnt_stamp[i] = E->cnt_gen;
            E->cnt_hash[i] = h;
            E->cnt_order[E->cnt_n++] = (int32_t)i;
            return wit ? keep_witness(E, W, (int32_t)i, start, end, resets, nc) : 1;
        }
        if (E->cnt_hash[i] == h) {
            if (!wit) return TP_ERR_DUP;
            const int32_t *w = E->cnt_wit + E->cnt_woff[i];
            return same_turn(E, W, start, end, nc, w) && w[2] == resets ? 0 : TP_ERR_DUP;
        }
    }
}

/* 1 when a change (tile u from code o to code v) touches what the node's turn clean-ups read (their memo, made by
   memo_cleanups): the tile, or a code put or removed that they read. */
static inline int cleanup_reads(const tp_engine *E, int32_t u, int32_t o, int32_t v) {
    uint32_t g = E->cm_gen;
    return E->cm_tread[u] == g || E->cm_cread[o] == g || E->cm_cread[v] == g;
}

/* 1 when tile u changed to code v may change the node's royal test (memo_attack): a tile it read, or a scanned entry
   tile now holding a code that enters there; with att_acc also any tile for a royal code of the mover (or of a third
   player: a caller then tests the turn in full, as it would).  Cost: a bit test with att_acc. */
static inline int attack_reads(const tp_engine *E, int32_t u, int32_t v) {
    size_t w = (size_t)(u >> 6);
    if (E->att_acc) return (int)(((E->at_rbits[w] | E->at_acc[(size_t)v * (size_t)E->words + w]) >> (u & 63)) & 1);
    const tp_tables *T = TABLES(E);
    uint32_t g = E->at_gen;
    return ((E->at_rbits[w] >> (u & 63)) & 1)
           || (E->at_gstamp[u] == g && (E->at_gat[u] < 0 || T->masks[(size_t)E->at_gat[u] * (size_t)T->nd + (size_t)v]));
}

/* 1 when a change (tile u from code o to code v) touches what the node's royal test answers for (mine: the mover's
   royal codes): a royal piece put or removed, or what the test read (attack_reads). */
static inline int royal_reads(const tp_engine *E, const uint8_t *mine, int32_t u, int32_t o, int32_t v) {
    if (E->att_acc) return attack_reads(E, u, v); /* mine[v]: att_acc's; mine[o]: u a royal tile, one the test read */
    return mine[v] || mine[o] || attack_reads(E, u, v);
}

/* The royal test of a turn (changes x: (tile, new, old), nc of them) where the node's own answers it: 1 safe, 0 not,
   -1 when it does not answer.  It answers when no change writes or removes a royal piece of the mover (the royal
   tiles stay the node's) and none touches what the node's test read (attack_relevant): one pass over the changes. */
static inline int royal_changes(const tp_engine *E, int32_t p, const int32_t *x, int32_t nc) {
    const tp_tables *T = TABLES(E);
    if (!E->at_ok) return -1;
    const uint8_t *mine = T->royal_mine + (size_t)p * (size_t)T->nd;
    for (int32_t c = 0; c < nc; c++)
        if (royal_reads(E, mine, x[3 * c], x[3 * c + 2], x[3 * c + 1])) return -1;
    return !E->at_base; /* at_ok: the node has royal tiles, tested */
}

/* royal_changes of the turn whose changes are in E->tmp. */
static inline int royal_as_node(const tp_engine *E, int32_t p, int32_t nc) {
    return royal_changes(E, p, E->tmp, nc);
}

/* The last ply of a bulk count at a node whose memos node_turns made (E->lq, E->lq_groups): what gen_settle answers
   for every quiet move of p that quiet_as_node passes, or -1.  Such a move is settled as gen_settle settles it
   without its steps: its changes (each a change, so a turn whatever the clean-ups add) touch nothing the node's
   clean-ups read (memo_merge merges their net writes E->cn), and neither they nor those net writes touch what the
   node's royal test read (royal_changes answers !at_base); so 1 when the node's royal tiles are not attacked (or
   the rule set has no royal rule), 0 when they are.  -1 (each move settled) where a memo does not hold or the net
   writes alone reach the royal test. */
static void leaf_plan(tp_engine *E, int32_t p) {
    const tp_tables *T = TABLES(E);
    E->lq_groups = T->grp_off[p + 1] > T->grp_off[p];
    E->lq = -1;
    if (E->lq_groups && !E->cm_ok) return;
    if (!T->has_royal) {
        E->lq = 1;
        return;
    }
    E->lq = royal_changes(E, p, E->cn, E->lq_groups ? E->cn_len : 0);
}

/* 1 when a change of a quiet move (tile u to code v, from the node's code codes[u]; mine: the mover's royal codes)
   touches nothing the node's memos read, as leaf_plan needs: memo_merge's test and royal_changes' on it. */
static inline int change_as_node(const tp_engine *E, const int32_t *codes, const uint8_t *mine, int32_t u, int32_t v) {
    int32_t o = codes[u];
    if (E->lq_groups && cleanup_reads(E, u, o, v)) return 0;
    return !TABLES(E)->has_royal || !royal_reads(E, mine, u, o, v);
}

/* 1 when each change of the quiet move of p with changes ch ((tile, new value) pairs, each a change; nc of them)
   touches nothing the node's memos read (change_as_node), else 0. */
static inline int quiet_as_node(const tp_engine *E, const Board *B, int32_t p, const int32_t *ch, int32_t nc) {
    const uint8_t *mine = TABLES(E)->royal_mine + (size_t)p * (size_t)TABLES(E)->nd;
    for (int32_t c = 0; c < nc; c++)
        if (!change_as_node(E, B->codes, mine, ch[2 * c], ch[2 * c + 1])) return 0;
    return 1;
}

/* The royal test of a leaf turn whose changes (tile, new, old) are in E->tmp, sorted by tile, as finish's: 1 when the
   mover's royal tiles after the turn are not attacked (or none), 0 when they are, < 0 an error.  The node's own
   test answers where the turn keeps the royal tiles and touches nothing it read; else the turn is written, tested
   and taken back. */
static int leaf_safe(tp_engine *E, const Walk *W, int32_t nc) {
    const tp_tables *T = TABLES(E);
    if (!T->has_royal) return 1;
    int fast = royal_as_node(E, W->player, nc);
    if (fast >= 0) return fast;
    Board *B = W->b;
    int32_t p = W->player;
    const uint8_t *mine = T->royal_mine + (size_t)p * (size_t)T->nd;
    int32_t nm = 0;
    for (int32_t i = 0; i < E->n_node_royal; i++) {
        int32_t u = E->node_royal[i], v = B->codes[u];
        for (int32_t c = 0; c < nc && E->tmp[3 * c] <= u; c++)
            if (E->tmp[3 * c] == u) v = E->tmp[3 * c + 1];
        if (mine[v]) E->mine[nm++] = u;
    }
    int same = nm == E->n_node_royal;
    for (int32_t c = 0; c < nc; c++)
        if (mine[E->tmp[3 * c + 1]] && !mine[E->tmp[3 * c + 2]]) {
            E->mine[nm++] = E->tmp[3 * c];
            same = 0;
        }
    if (!nm) return 1;
    int r;
    if (same && E->at_ok && !attack_relevant(E, nc)) {
        r = E->at_base;
    } else {
        int32_t mark = E->undo_top;
        if (E->undo_top + nc > E->undo_cap) return TP_ERR_CAP;
        for (int32_t c = 0; c < nc; c++) put(E, B, E->tmp[3 * c], E->tmp[3 * c + 1]);
        r = attacked(E, B, E->mine, nm, p);
        restore(E, B, mark);
    }
    return r < 0 ? r : !r;
}

/* A turn's changes in E->tmp (tile, new, old; nc of them, sorted by tile) merged with the node's turn clean-ups'
   net writes (E->cn, cn_len more) where the node's memo says they write the same after the turn: the memo holds and
   the turn changes no tile, and puts or removes no code, that the clean-ups read (they read every tile they write).
   1 merged, 0 when the memo cannot answer (the clean-ups must run on the board with the turn written). */
static int memo_merge(tp_engine *E, int32_t nc) {
    if (!E->cm_ok) return 0;
    for (int32_t c = 0; c < nc; c++) {
        const int32_t *x = E->tmp + 3 * c;
        if (cleanup_reads(E, x[0], x[2], x[1])) return 0;
    }
    int32_t i = nc - 1, j = E->cn_len - 1, o = nc + E->cn_len - 1;
    for (; j >= 0; o--) {
        if (i >= 0 && E->tmp[3 * i] > E->cn[3 * j]) {
            memmove(E->tmp + 3 * o, E->tmp + 3 * i, 3 * sizeof *E->tmp);
            i--;
        } else {
            memcpy(E->tmp + 3 * o, E->cn + 3 * j, 3 * sizeof *E->tmp);
            j--;
        }
    }
    return 1;
}

/* step and finish for a move that is a whole turn (an entry with no links, no safe cells), in turns mode: the same
   key and verdict, found without writing the board where the node's memos answer.  Its changes come from the
   writes' new values, merged with the node's clean-up writes when the memo says the clean-ups write the same (else
   FAST_NO: the general step runs them); the royal test is the node's own when the memo says it cannot differ, else
   run on the board with the turn written.  No change at all is the start position again: not taken. */
static int step_leaf(tp_engine *E, const Walk *W, int32_t a) {
    const tp_tables *T = TABLES(E);
    Board *B = W->b;
    if (E->pair_on && pair_leaf(E, W, a)) return 1;
    int32_t p = W->player, w0 = T->wr_off[a], nw = new_values(E, B, a), nc = 0;
    for (int32_t k = 0; k < nw; k++) {
        int32_t u = T->wr_tile[w0 + k], v = E->nv[k], old = B->codes[u];
        if (v == old) continue;
        int32_t *x = E->tmp + 3 * nc;
        int32_t i = nc++;
        for (; i > 0 && x[-3] > u; i--, x -= 3) memcpy(x, x - 3, 3 * sizeof *x);
        x[0] = u;
        x[1] = v;
        x[2] = old;
    }
    if (nc == 0) return 0;
    if (T->grp_off[p + 1] > T->grp_off[p]) {
        if (!memo_merge(E, nc)) return FAST_NO;
        nc += E->cn_len;
    }
    int32_t start = W->start, end = T->app_to[a] >= 0 ? T->app_to[a] : W->start;
    if (T->keyed_by_changes) start = end = E->tmp[0]; /* as finish keys it: from and to its least changed tile */
    if (E->solo_on && E->solo[a] & (SOLO_LEAF | SOLO_PLAIN)) { /* its own key: counted, not kept */
        int r = leaf_safe(E, W, nc);
        if (r < 0) return r;
        E->solo_legal += r;
        return 1;
    }
    if (E->cnt_on) { /* counted by the hash of the position after it (no royal rule here: always accepted) */
        uint64_t h = B->hash;
        for (int32_t c = 0; c < nc; c++) {
            const uint64_t *z = E->zob + (size_t)E->tmp[3 * c] * (size_t)T->nd;
            h ^= z[E->tmp[3 * c + 1]] ^ z[E->tmp[3 * c + 2]];
        }
        int kb = T->keyed_by_changes;
        int r = count_turn(E, W, h, kb ? -1 : start, kb ? 0 : end, T->nctr ? T->app_reset[a] : 0, nc);
        if (r == TP_ERR_FOUND) return found_key(E, start, end, nc, T->app_reset[a]);
        if (r == 1 && E->make_leaves) { /* a perft that makes its leaves: the new turn written and taken back */
            int32_t mark = E->undo_top;
            if (E->undo_top + nc > E->undo_cap) return TP_ERR_CAP;
            for (int32_t c = 0; c < nc; c++) put(E, B, E->tmp[3 * c], E->tmp[3 * c + 1]);
            restore(E, B, mark);
        }
        return r < 0 ? r : 1;
    }
    int32_t k = find_key(E, E->se_now ? 0 : key_hash(E, start, end, nc), start, end, nc);
    if (k < 0) return k;
    Key *K = &E->keys[k];
    if (K->pos_ok == 2) {
        int r = leaf_safe(E, W, nc);
        if (r < 0) return r;
        K->pos_ok = (uint8_t)r;
    }
    if (!K->pos_ok) return 1;
    accept_resets(K, T->app_reset[a]);
    accept_most(K, T->app_max[a]);
    K->accepted = 1;
    K->flagged |= T->app_flag[a];
    return 1;
}

static int has_line(const tp_engine *E, const Board *B, int32_t e, int32_t m);
static int32_t collect_changes(tp_engine *E, const Walk *W);

/* The turn of a complete chain whose writes are on the board, in a count by hash (cnt_on): counted by the hash of
   its position (count_turn's answer, >= 0), or < 0; at the turn a playout picked, its key made as the keyed walk
   makes it, and TP_ERR_FOUND.  resets: the counters its moves reset (read by the witnesses and the picked key). */
static int count_chain(tp_engine *E, const Walk *W, int32_t end, int32_t resets) {
    int kb = TABLES(E)->keyed_by_changes;
    uint64_t h = W->b->hash;
    int r = kb ? count_turn(E, W, h, -1, 0, resets, -1) : count_turn(E, W, h, W->start, end, resets, -1);
    if (r != TP_ERR_FOUND) return r;
    int32_t nc = collect_changes(E, W);
    return kb ? found_key(E, E->tmp[0], E->tmp[0], nc, resets) : found_key(E, W->start, end, nc, resets);
}

/* 1 when link l may be followed after a move that ended on tile here, by player p: its conditions hold (a link
   followed only while its counts hold) and, for an until-line link, the mover has no line yet. */
static inline int link_open(const tp_engine *E, const Board *B, int32_t l, int32_t here, int32_t p) {
    const tp_tables *T = TABLES(E);
    int32_t k0 = T->lnk_cond_off[l], k1 = T->lnk_cond_off[l + 1], c = E->lnk_hl[l];
    if (c >= 0 && here >= 0) { /* one condition on lines through the tile at hand (a mill): cond_holds's answer */
        if (!compare(tile_counts(E, B, c, T->masks + (size_t)T->cond_mask[c] * (size_t)T->nd, here), T->cond_op[c],
                     T->cond_value[c]))
            return 0;
    } else if (k1 > k0 && !conds_hold(E, B, T->lnk_cond, k0, k1, here)) {
        return 0;
    }
    if (T->lnk_line[l] >= 0) {
        int32_t e = T->lnk_line[l], m = T->end_pmask[e * T->np + p];
        if (m >= 0 && has_line(E, B, e, m)) return 0;
    }
    return 1;
}

/* step's end for move a of a chain whose writes (and the rest of its move) are on the board and did not repeat a
   position, in a count by hash (cnt_on) with no turn clean-ups, a final move with no links or links followed only
   while their conditions hold (leaf or cond_leaf; no slide, no step budget, no fly-over): where no link may be followed,
   the chain's turn counted as finish counts it (the start again: none), without the path level, the chain's
   sequence and finish's tests: 1 (or < 0, TP_ERR_FOUND at a playout's pick); else FAST_NO, step walks on. */
static int closed_count(tp_engine *E, const Walk *W, int32_t a, int32_t end) {
    const tp_tables *T = TABLES(E);
    Board *B = W->b;
    int32_t here = T->app_to[a] >= 0 ? T->app_to[a] : T->app_tile[a];
    for (int32_t l = T->lnk_off[a]; l < T->lnk_off[a + 1]; l++)
        if (link_open(E, B, l, here, W->player)) return FAST_NO;
    int32_t resets = 0; /* read by the witnesses and the picked turn's key only, as finish reads them */
    if (T->nctr && (E->cnt_dup || E->cnt_find >= 0)) {
        resets = T->app_reset[a];
        for (int32_t i = W->seq_base; i < E->seq_top; i++) resets |= T->app_reset[E->seq[i]];
    }
    int r = 0;
    if (B->hash != E->path_hash[W->path_base] || !same_as_at(E, B, W->undo_base))
        r = count_chain(E, W, T->app_to[a] >= 0 ? T->app_to[a] : end, resets);
    return r < 0 ? r : 1;
}

/* step for the first move of a chain whose links are each followed only while their conditions hold (cond_leaf), in
   a count by hash (cnt_on): its writes made; where no link may be followed the chain ends there, its turn counted
   as finish counts it (no path level, no label, no clean-ups: the rule set has none), else FAST_NO and the general
   step walks it. */
static int step_cond_leaf(tp_engine *E, const Walk *W, int32_t a) {
    const tp_tables *T = TABLES(E);
    Board *B = W->b;
    if (E->solo_on && E->solo[a] == SOLO_ALONE) { /* a bulk count: one change on its own tile (one_cell) */
        int codes_only = 1; /* its links' conditions each a line through the tile at hand: they read codes alone */
        for (int32_t l = T->lnk_off[a]; codes_only && l < T->lnk_off[a + 1]; l++)
            codes_only = E->lnk_hl[l] >= 0 && T->lnk_line[l] < 0;
        if (codes_only) { /* the code written alone (no hash, counts or bit sets), the links read, and taken back */
            int32_t u = T->app_tile[a], old = B->codes[u], open = 0;
            int32_t here = T->app_to[a] >= 0 ? T->app_to[a] : u;
            B->codes[u] = T->maps[(size_t)T->wr_map[T->wr_off[a]] * (size_t)T->nd + (size_t)old];
            for (int32_t l = T->lnk_off[a]; !open && l < T->lnk_off[a + 1]; l++) open = link_open(E, B, l, here, W->player);
            B->codes[u] = old;
            if (open) return FAST_NO;
            E->solo_legal++;
            return 1;
        }
    }
    int32_t here = T->app_to[a] >= 0 ? T->app_to[a] : T->app_tile[a];
    if (E->sstep_node && E->sstep[a] && E->cnt_find < 0 && !E->cnt_dup && !E->make_leaves && !E->pair_on) {
        /* a shut step: away from the node's lines (shut_steps_near) its links are shut; beside them, read on its
           codes written alone (they read codes only: lnk_hl), and where one opens FAST_NO, step walks it.  Where
           shut, counted as below by the hash of the position after it, unwritten */
        int32_t nw = new_values(E, B, a), nc = 0, w0 = T->wr_off[a], old[8];
        if (nw > 8) return FAST_NO;
        if (E->sstep_near[here >> 6] >> (here & 63) & 1) {
            int open = 0;
            for (int32_t k = 0; k < nw; k++) {
                old[k] = B->codes[T->wr_tile[w0 + k]];
                B->codes[T->wr_tile[w0 + k]] = E->nv[k];
            }
            for (int32_t l = T->lnk_off[a]; !open && l < T->lnk_off[a + 1]; l++) open = link_open(E, B, l, here, W->player);
            for (int32_t k = nw - 1; k >= 0; k--) B->codes[T->wr_tile[w0 + k]] = old[k];
            if (open) return FAST_NO;
        }
        if (E->plain_on && E->solo[a] == SOLO_ALONE) {
            E->solo_legal++;
            return 1;
        }
        uint64_t h = B->hash;
        for (int32_t k = 0; k < nw; k++) {
            int32_t u = T->wr_tile[w0 + k], o = B->codes[u];
            if (E->nv[k] == o) continue;
            const uint64_t *z = E->zob + (size_t)u * (size_t)T->nd;
            h ^= z[o] ^ z[E->nv[k]];
            nc++;
        }
        if (nc == 0) return 0; /* the start again */
        int r = T->keyed_by_changes ? count_turn(E, W, h, -1, 0, 0, -1)
                                    : count_turn(E, W, h, W->start, T->app_to[a] >= 0 ? T->app_to[a] : W->start, 0, -1);
        if (r == 1) E->cnt_order[E->cnt_n - 1] = SSTEP_RANK; /* a new turn, its entry's one: pick_turn's sstep_pick */
        return r < 0 ? r : 1;
    }
    int32_t mark = E->undo_top, nw = new_values(E, B, a);
    if (E->undo_top + nw > E->undo_cap) return TP_ERR_CAP;
    for (int32_t k = 0; k < nw; k++) put(E, B, T->wr_tile[T->wr_off[a] + k], E->nv[k]);
    int r = 0;
    for (int32_t l = T->lnk_off[a]; l < T->lnk_off[a + 1]; l++) { /* step's tests of its links */
        if (!link_open(E, B, l, here, W->player)) continue;
        r = FAST_NO;
        goto out;
    }
    if (E->plain_on && E->solo[a] == SOLO_ALONE) { /* one change, no other chain's: counted (made: it is written) */
        E->solo_legal++;
        r = 1;
        goto out;
    }
    if (B->hash == E->path_hash[W->path_base] && same_as_at(E, B, W->undo_base)) goto out; /* the start again */
    r = count_chain(E, W, T->app_to[a] >= 0 ? T->app_to[a] : W->start,
                    T->nctr && (E->cnt_dup || E->cnt_find >= 0) ? T->app_reset[a] : 0);
    if (r >= 0) r = 1;
out:
    restore(E, B, mark);
    return r;
}

/* 1 where entry a, the first move of the walk W of the node's scan, is a shut step step_cond_leaf counts unwritten
   away from the node's lines (it answers there without FAST_NO) and that step hands to step_cond_leaf before
   anything else (no slide: not a revisit; not a leaf; links with conditions): walk_entry calls it straight. */
static inline int sstep_away(const tp_engine *E, const Walk *W, int32_t a) {
    const tp_tables *T = TABLES(E);
    if (!E->sstep_node || !E->sstep[a] || !E->cond_leaf[a] || E->leaf[a] || T->app_slide[a] >= 0
        || W->mode != WALK_TURNS || E->seq_top != W->seq_base || T->wr_off[a + 1] - T->wr_off[a] > 8)
        return 0;
    int32_t here = T->app_to[a] >= 0 ? T->app_to[a] : T->app_tile[a];
    return !(E->sstep_near[here >> 6] >> (here & 63) & 1);
}

/* step for a later move a of a chain (not its first) that closed_follows admits, in a count by hash (cnt_on, no
   witnesses, leaves not made; a playout's pick walks its chains so too): the hash of the position after it from its
   changes, unwritten; where
   that position is on the chain's path (a hash of its levels), a change writes nothing, it has more than 8 writes or
   one of its links opens (read on its codes written alone: they read codes only), FAST_NO and step walks it;
   else its turn counted as closed_count counts it (1, or < 0; at the picked turn FAST_NO, step finds it again). */
static int closed_follow(tp_engine *E, const Walk *W, int32_t a, int32_t end) {
    const tp_tables *T = TABLES(E);
    Board *B = W->b;
    int32_t nw = new_values(E, B, a), w0 = T->wr_off[a], old[8];
    if (nw > 8) return FAST_NO;
    uint64_t h = B->hash;
    for (int32_t k = 0; k < nw; k++) {
        int32_t u = T->wr_tile[w0 + k];
        old[k] = B->codes[u];
        if (E->nv[k] == old[k]) return FAST_NO;
        const uint64_t *z = E->zob + (size_t)u * (size_t)T->nd;
        h ^= z[old[k]] ^ z[E->nv[k]];
    }
    for (int32_t i = W->path_base; i < E->path_top; i++)
        if (E->path_hash[i] == h) return FAST_NO; /* (stands, or the start again: step reads it) */
    if (T->lnk_off[a + 1] > T->lnk_off[a]) {
        int32_t here = T->app_to[a] >= 0 ? T->app_to[a] : T->app_tile[a], open = 0;
        for (int32_t k = 0; k < nw; k++) B->codes[T->wr_tile[w0 + k]] = E->nv[k];
        for (int32_t l = T->lnk_off[a]; !open && l < T->lnk_off[a + 1]; l++) open = link_open(E, B, l, here, W->player);
        for (int32_t k = nw - 1; k >= 0; k--) B->codes[T->wr_tile[w0 + k]] = old[k];
        if (open) return FAST_NO;
    }
    if (T->app_to[a] >= 0) end = T->app_to[a];
    int r = T->keyed_by_changes ? count_turn(E, W, h, -1, 0, 0, -1) : count_turn(E, W, h, W->start, end, 0, -1);
    if (r == TP_ERR_FOUND) return FAST_NO; /* a playout's picked turn: step writes it and makes its key */
    return r < 0 ? r : 1;
}

/* chains.revisits: 1 when application a would continue a slide (the run of applications of its repeated
   move the walk's chain ends with) onto a tile the slide has passed (stood or landed on), its start included. */
static int revisits(const tp_engine *E, const Walk *W, int32_t a) {
    const tp_tables *T = TABLES(E);
    int32_t m = T->app_slide[a], to = T->app_to[a];
    if (m < 0 || to < 0) return 0;
    if (T->app_tile[a] == to) return 1;
    for (int32_t i = E->seq_top - 1; i >= W->seq_base && T->app_slide[E->seq[i]] == m; i--)
        if (T->app_to[E->seq[i]] == to || T->app_tile[E->seq[i]] == to) return 1;
    return 0;
}

/* chains.extend_path in chains mode: the label path of the walk's chain after application a (the chain so far is
   seq[seq_base .. seq_top); its first move starts the path at its tile), with what undo_label needs saved in *len0,
   *tile0: a landing tile appended after its separator, after "," and its origin for a follow-up that moves another
   piece, or in place of the last tile where a slide goes on. */
static void extend_label(tp_engine *E, const Walk *W, int32_t a, int32_t *len0, int32_t *tile0) {
    const tp_tables *T = TABLES(E);
    int first = E->seq_top == W->seq_base;
    if (first) {
        E->lp_len = 1;
        E->lp_sep[0] = 0;
        E->lp_tile[0] = T->app_tile[a];
    }
    int32_t n = E->lp_len, to = T->app_to[a];
    *len0 = n;
    *tile0 = E->lp_tile[n - 1];
    if (to < 0) return;
    if (!first && !T->app_block[a] && T->app_tile[a] != E->lp_tile[n - 1] && to != T->app_tile[a]) {
        E->lp_sep[n] = T->sep_comma;
        E->lp_tile[n] = T->app_tile[a];
        n++;
    } else if (!first && n > 1 && T->app_slide[a] >= 0 && T->app_slide[E->seq[E->seq_top - 1]] == T->app_slide[a]) {
        E->lp_tile[n - 1] = to;
        return;
    }
    E->lp_sep[n] = T->app_sep[a];
    E->lp_tile[n] = to;
    E->lp_len = n + 1;
}

static inline void undo_label(tp_engine *E, int32_t len0, int32_t tile0) {
    E->lp_len = len0;
    E->lp_tile[len0 - 1] = tile0;
}

/* A block move that changes nothing (chains.py): the chain ends with it, its position not compared with the earlier
   ones (it is the position before it).  1 taken, 2 taken and the walk stops, < 0 an error. */
static int still_step(tp_engine *E, Walk *W, int32_t a, int32_t end, int32_t flagged) {
    const tp_tables *T = &E->t;
    if (E->seq_top >= E->depth_cap) return TP_ERR_CAP;
    int32_t len0 = 0, tile0 = 0, label = E->chains_mode && W->mode == WALK_TURNS;
    if (label) extend_label(E, W, a, &len0, &tile0);
    E->seq[E->seq_top++] = a;
    if (T->app_to[a] >= 0) end = T->app_to[a];
    flagged |= T->app_flag[a];
    int r = 0, stop = 0;
    if (W->mode == WALK_ATTACK)
        stop = touched(W);
    else
        r = finish(E, W, end, flagged);
    E->seq_top--;
    if (label) undo_label(E, len0, tile0);
    if (r < 0) return r;
    return stop ? 2 : 1;
}

static int step(tp_engine *E, Walk *W, int32_t a, int32_t end, int32_t flagged);

/* A new node for apart_second's records: none kept. */
static inline void apart_fresh(tp_engine *E) {
    next_gen(&E->ac_gen, E->ac_stamp, (size_t)TABLES(E)->napps);
    E->ac_n = E->ac_nchg = 0;
}

/* 1 when second slide c's reach misses the tiles of the chain's first slide (E->apart_fa): the two commute. */
static inline int slides_apart(const tp_engine *E, int32_t c) {
    const uint64_t *r = E->reach + (size_t)c * (size_t)E->words;
    for (int32_t w = 0; w < E->words; w++)
        if (r[w] & E->apart_fa[w]) return 0;
    return 1;
}

/* finish's count of the turn of a chain whose first slide is written on the board (its changes since the node in
   E->apart_fc) and whose second slide is written on the codes alone since undo height gmark (apart_step): the
   position's hash the board's with the second slide's net changes, the turn's changes in E->tmp, sorted by tile, as
   count_turn reads a turn of nc changes and count_chain keys the picked one: the first slide's with the second's
   inserted (a tile both changed holds the second's code, or is no change where that is its code at the node: a
   second slide meeting the first, apart_meet); the codes of the tiles not in E->tmp are the node's.  While
   apart_second records (ac_rec), the end's record kept instead (a second slide apart: no tile in both).  0 (counted,
   seen), 2 (the node's position again: no turn), < 0 an error or TP_ERR_FOUND at a playout's pick. */
static int apart_count(tp_engine *E, const Walk *W, int32_t gmark) {
    const tp_tables *T = TABLES(E);
    const Board *B = W->b;
    size_t nd = (size_t)T->nd;
    uint64_t h = B->hash;
    int32_t nc = E->apart_nfc;
    memcpy(E->tmp, E->apart_fc, 3 * (size_t)nc * sizeof *E->tmp);
    uint32_t g = next_gen(&E->tgen, E->tstamp, (size_t)T->n);
    for (int32_t j = gmark; j < E->undo_top; j++) { /* a tile's first write holds its code at the node */
        int32_t u = E->undo_tile[j], old = E->undo_old[j], v = B->codes[u];
        if (E->tstamp[u] == g) continue;
        E->tstamp[u] = g;
        if (v == old) continue;
        h ^= E->zob[(size_t)u * nd + (size_t)old] ^ E->zob[(size_t)u * nd + (size_t)v];
        int32_t *x = E->tmp, *x1 = E->tmp + 3 * nc;
        while (x < x1 && x[0] != u) x += 3;
        if (x < x1) { /* a tile the first slide changed (apart_meet): the turn's code there, or none (as at the node) */
            if (v != x[2]) {
                x[1] = v;
            } else {
                memmove(x, x + 3, (size_t)(x1 - x - 3) * sizeof *x);
                nc--;
            }
            continue;
        }
        x = x1;
        int32_t i = nc++;
        for (; i > 0 && x[-3] > u; i--, x -= 3) memcpy(x, x - 3, 3 * sizeof *x);
        x[0] = u;
        x[1] = v;
        x[2] = old;
    }
    if (E->ac_rec) { /* apart_second's record of the end: the second slide's part alone (no first slide's) */
        int32_t gr = 0, k = E->ac_n, ng = nc - E->apart_nfc;
        for (int32_t i = E->ac_seq; T->nctr && i < E->seq_top; i++) gr |= T->app_reset[E->seq[i]];
        if (k >= E->ac_cap || E->ac_nchg + 3 * ng > E->ac_chg_cap) {
            E->ac_over = 1;
            return 0;
        }
        E->ac_hash[k] = h ^ B->hash;
        E->ac_reset[k] = gr;
        E->ac_coff[k] = E->ac_nchg;
        E->ac_nc[k] = ng;
        for (int32_t c = 0, j = 0; c < nc; c++) { /* the second slide's changes: the tiles apart_fc has not */
            while (j < E->apart_nfc && E->apart_fc[3 * j] < E->tmp[3 * c]) j++;
            if (j < E->apart_nfc && E->apart_fc[3 * j] == E->tmp[3 * c]) continue;
            memcpy(E->ac_chg + E->ac_nchg, E->tmp + 3 * c, 3 * sizeof *E->tmp);
            E->ac_nchg += 3;
        }
        E->ac_n++;
        return 0;
    }
    if (nc == 0) return 2;
    int32_t resets = 0; /* read by the witnesses and the picked turn's key only, as finish reads them */
    for (int32_t i = W->seq_base; T->nctr && (E->cnt_dup || E->cnt_find >= 0) && i < E->seq_top; i++)
        resets |= T->app_reset[E->seq[i]];
    int r = count_turn(E, W, h, -1, 0, resets, nc);
    if (r != TP_ERR_FOUND) return r < 0 ? r : 0;
    return found_key(E, E->tmp[0], E->tmp[0], nc, resets);
}

/* step for a second slide's step x that fits, after a first slide written on the board whose tiles x's reach misses
   (slides_apart) or that x meets from a tile the first does not write (apart_meet), in a count by hash with keys by
   changes (the walk's where apart_slides proved the slide moves):
   x's writes made on the codes alone (fits and new_values read codes; the undo stack keeps the old ones), its
   continuations that fit walked first, then its own stop counted (apart_count), as step walks them in that order.
   What step tests besides holds by apart_slides' proof: no position of the chain repeats (no stop flown over or
   landed on again), the second slide's steps are final plain slide steps whose links continue it, plain, not forced,
   no clean-ups after each move; a slide passing its own tiles is refused (revisits), as step refuses it.  1 taken, 0
   not, < 0 an error (TP_ERR_FOUND at a playout's pick). */
static int apart_step(tp_engine *E, const Walk *W, int32_t x, int32_t gmark) {
    const tp_tables *T = TABLES(E);
    Board *B = W->b;
    if (revisits(E, W, x)) return 0;
    if (E->seq_top >= E->depth_cap) return TP_ERR_CAP;
    int32_t mark = E->undo_top, nw = new_values(E, B, x);
    if (E->undo_top + nw > E->undo_cap) return TP_ERR_CAP;
    for (int32_t k = 0; k < nw; k++) {
        int32_t u = T->wr_tile[T->wr_off[x] + k];
        E->undo_tile[E->undo_top] = u;
        E->undo_old[E->undo_top++] = B->codes[u];
        B->codes[u] = E->nv[k];
    }
    E->seq[E->seq_top++] = x;
    int r = 0, took = 0;
    for (int32_t l = T->lnk_off[x]; r >= 0 && l < T->lnk_off[x + 1]; l++)
        for (int32_t k = T->tgt_off[l]; r >= 0 && k < T->tgt_off[l + 1]; k++)
            if (fits(E, B->codes, T->tgt[k])) {
                r = apart_step(E, W, T->tgt[k], gmark);
                took |= r > 0;
            }
    if (r >= 0 && T->app_final[x]) r = apart_count(E, W, gmark);
    E->seq_top--;
    while (E->undo_top > mark) {
        E->undo_top--;
        B->codes[E->undo_tile[E->undo_top]] = E->undo_old[E->undo_top];
    }
    return r < 0 ? r : r == 2 && !took ? 0 : 1; /* at the node's position, as step flies over it: taken where it
                                                    went on */
}

/* apart_step for a second slide's entry step x that fits, apart from the first slide on the board (slides_apart):
   x's chains read and write only tiles of its reach, which the first slide left as at the node, so their ends (each
   one's hash change and changes) are the same after every first slide apart from x: walked once per node on the
   codes (recorded by apart_count, ac_*), then for each first slide each end's turn counted from its record, its
   changes merged with the first slide's (apart_fc) in E->tmp, in the order apart_step counts them.  Where the records
   do not fit, apart_step walks x each time.  1 taken, < 0 an error (TP_ERR_FOUND at a playout's pick).  Cost: per
   end, the merge of the two slides' changes and count_turn. */
static int apart_second(tp_engine *E, const Walk *W, int32_t x) {
    const tp_tables *T = TABLES(E);
    if (E->ac_stamp[x] != E->ac_gen) {
        int32_t n0 = E->ac_n, c0 = E->ac_nchg;
        E->ac_stamp[x] = E->ac_gen;
        E->ac_rec = 1;
        E->ac_over = 0;
        E->ac_seq = E->seq_top;
        int r = apart_step(E, W, x, E->undo_top);
        E->ac_rec = 0;
        if (r < 0) {
            E->ac_stamp[x] = 0;
            return r;
        }
        E->ac_first[x] = n0;
        E->ac_num[x] = E->ac_over ? -1 : E->ac_n - n0;
        if (E->ac_over) {
            E->ac_n = n0;
            E->ac_nchg = c0;
        }
    }
    if (E->ac_num[x] < 0) return apart_step(E, W, x, E->undo_top);
    int res = T->nctr && (E->cnt_dup || E->cnt_find >= 0);
    const int32_t *fc = E->apart_fc;
    int32_t nf = E->apart_nfc;
    for (int32_t i = E->ac_first[x], i1 = i + E->ac_num[x]; i < i1; i++) {
        const int32_t *gc = E->ac_chg + E->ac_coff[i];
        int32_t ng = E->ac_nc[i], nc = nf;
        for (int32_t j = 0; j < 3 * nf; j++) E->tmp[j] = fc[j];
        for (int32_t k = 0; k < ng; k++, gc += 3) { /* each of the second's inserted by tile (apart: no tile in both) */
            int32_t *o = E->tmp + 3 * nc++;
            for (; o > E->tmp && o[-3] > gc[0]; o -= 3) {
                o[0] = o[-3];
                o[1] = o[-2];
                o[2] = o[-1];
            }
            o[0] = gc[0];
            o[1] = gc[1];
            o[2] = gc[2];
        }
        if (nc == 0) continue; /* the node's position again: no turn */
        int32_t resets = res ? E->apart_fr | E->ac_reset[i] : 0;
        int r = count_turn(E, W, W->b->hash ^ E->ac_hash[i], -1, 0, resets, nc);
        if (r == TP_ERR_FOUND) r = found_key(E, E->tmp[0], E->tmp[0], nc, resets);
        if (r < 0) return r;
    }
    E->ac_used += E->ac_num[x];
    return 1;
}

/* apart_step for a second slide's entry step x that fits but meets the first slide (its reach holds a tile the first
   checks or writes), walked on the codes after it where x and its continuations write only their own and `to` tiles,
   each write a change (meet_ok), and each level of the chain's path between the node's and the one at hand is one a
   slide flew through (path_mid: the first slide's stops before its last).  x's own tile t then differs after x from
   the position at hand and is never written again (no later step lands on t: revisits), and each later step changes
   its `to` tile, unwritten before, so the second slide's positions differ from each other and from the position at
   hand; one equal to a flown-through level is a stop as step lands there, one equal to the node's is flown over (no
   turn, apart_count's 2; taken where it goes on), as step's path tests (stands) answer.  The turn's changes merge
   the two slides' (apart_count).  FAST_NO where the path has another stop (step walks x), else apart_step's answer. */
static int apart_meet(tp_engine *E, const Walk *W, int32_t x) {
    for (int32_t i = W->path_base + 1; i < E->path_top - 1; i++)
        if (!E->path_mid[i]) return FAST_NO;
    return apart_step(E, W, x, E->undo_top);
}

/* A follow-up b of the move on path level `level` (sliding `slide`, flying over a stop where `fly`), with `left`
   steps of the budget left (step budgets): step's answer for it, 0 where it is not tried. */
/* For a condition of line_conds (lh_ok), the tiles on a line of its set whose tiles all hold its codes (one word). */
static inline uint64_t full_lines(const tp_engine *E, const Board *B, int32_t c) {
    const tp_tables *T = TABLES(E);
    const uint8_t *m = T->masks + (size_t)T->cond_mask[c] * (size_t)T->nd;
    uint64_t own = 0, full = 0;
    for (int32_t x = 0; x < T->nd; x++)
        if (m[x]) own |= B->bits[x];
    int32_t s = T->cond_lset[c];
    for (int32_t j = E->shut_line_off[s]; j < E->shut_line_off[s + 1]; j++)
        if (!(E->shut_lmask[j] & ~own)) full |= E->shut_lmask[j];
    return full;
}

/* app_conds_hold for follow-up b of link loop `cur` (0: none): a condition reading no tile at hand (cond_free) read
   once per loop, its answer kept for the loop's other follow-ups (the board is the same for each: every step
   restores it). */
static int follow_conds(tp_engine *E, const Board *B, int32_t b, uint32_t cur) {
    const tp_tables *T = TABLES(E);
    int32_t k0 = T->app_cond_off[b], k1 = T->app_cond_off[b + 1];
    if (!cur) return app_conds_hold(E, B, b);
    for (int32_t k = k0; k < k1; k++) {
        int32_t c = T->app_cond[k];
        if (E->lh_ok && E->lh_ok[c]) { /* lines through the tile at hand: the loop's full lines, then one tile */
            if (E->cf_stamp[c] != cur) {
                E->cf_stamp[c] = cur;
                E->lh_full[c] = full_lines(E, B, c);
            }
            int32_t u = T->app_tile[b];
            int64_t n = T->masks[(size_t)T->cond_mask[c] * (size_t)T->nd + (size_t)B->codes[u]]
                        && (int)(E->lh_full[c] >> u & 1) != T->cond_outside[c];
            if (!compare(n, T->cond_op[c], T->cond_value[c])) return 0;
            continue;
        }
        if (!E->cond_free[c]) {
            if (!conds_hold(E, B, T->app_cond, k, k + 1, T->app_tile[b])) return 0;
            continue;
        }
        if (E->cf_stamp[c] != cur) {
            E->cf_stamp[c] = cur;
            E->cf_val[c] = (uint8_t)conds_hold(E, B, T->app_cond, k, k + 1, T->app_tile[b]);
        }
        if (!E->cf_val[c]) return 0;
    }
    return 1;
}

/* A link loop's number for follow_conds (never 0). */
static inline uint32_t next_loop(tp_engine *E) {
    if (++E->cf_gen == 0) {
        memset(E->cf_stamp, 0, ((size_t)TABLES(E)->nconds + 1) * sizeof *E->cf_stamp);
        E->cf_gen = 1;
    }
    return E->cf_gen;
}

/* A follow-up b without links of a raw chain (E->raw) that fits, in a count (not a playout's pick): 1 where it is
   counted by (start, b's end) without being written, else FAST_NO (step walks it).  It is where one of its writes puts
   a new code on a tile no move of the chain wrote (raw_w) and the mover's turn clean-ups never write (pair_cw): every
   position of the chain's path and the node's hold the old code there, so the position after b changes something
   (not a still block), stands nowhere on the path and is not the node's after the clean-ups (pair_kept's answer). */
static int raw_leaf(tp_engine *E, const Walk *W, int32_t b, int32_t end) {
    const tp_tables *T = TABLES(E);
    if (E->cnt_find >= 0 || T->lnk_off[b + 1] > T->lnk_off[b] || !T->app_final[b]) return FAST_NO;
    if (revisits(E, W, b)) return 0;
    const uint64_t *cw = E->pair_cw + (size_t)W->player * (size_t)E->words;
    const int32_t *codes = W->b->codes;
    for (int32_t k = T->wr_off[b]; k < T->wr_off[b + 1]; k++) {
        int32_t u = T->wr_tile[k];
        if (E->raw_w[u] || cw[u >> 6] >> (u & 63) & 1
            || T->maps[(size_t)T->wr_map[k] * (size_t)T->nd + (size_t)codes[T->wr_src[k]]] == codes[u])
            continue;
        pair_count(E, W->start, T->app_to[b] >= 0 ? T->app_to[b] : end);
        return 1;
    }
    return FAST_NO;
}

static int follow(tp_engine *E, Walk *W, int32_t b, int32_t slide, int fly, int32_t level, int32_t end,
                  int32_t flagged, int32_t left) {
    const tp_tables *T = TABLES(E);
    uint32_t cur = E->cf_cur; /* the loop's number, read once: the step below starts loops of its own */
    E->cf_cur = 0;
    if (T->steps && T->app_cost[b] > left) return 0; /* the move costs more steps than the turn has left */
    if (pair_seen(E, W->start, b)) return 0;
    if (E->tracking) track_app(E, b);
    if (!fits(E, W->b->codes, b) || !follow_conds(E, W->b, b, cur)) return 0;
    int on = slide >= 0 && T->app_slide[b] == slide; /* the slide flies on */
    if (fly && !on) return 0;
    if (on && !fly) E->path_mid[level] = 1; /* every rule set: a later move may land where a slide flew through */
    int r = E->raw ? raw_leaf(E, W, b, end) : FAST_NO;
    if (r == FAST_NO) r = step(E, W, b, end, flagged);
    E->path_mid[level] = 0;
    return r;
}

/* The rows of link table tb a move may follow with `left` steps left (`*off`, `*app`: ltab_off's and ltab_app's, or
   where the rule set has a step budget budget_tables' rows of the applications costing at most `left`, in their
   order: follow refuses the others); 0 where none costs so little (the table's follow-ups all refused). */
static inline int budget_rows(const tp_engine *E, int32_t tb, int32_t left, const int32_t **off, const int32_t **app) {
    const tp_tables *T = TABLES(E);
    if (!E->bl_off) {
        *off = T->ltab_off;
        *app = T->ltab_app;
        return 1;
    }
    size_t rows = (size_t)T->nltab * (size_t)T->n * (size_t)T->nd, l = (size_t)(left < 0 ? 0 : left);
    *off = E->bl_off + l * rows;
    *app = E->bl_app;
    return E->bl_any[l * (size_t)T->nltab + (size_t)tb];
}

/* A follow-up of a paired link (paired_links) that fits, at the last ply of a count that makes its leaves: its one
   write, v on its own tile u, made on the board's codes and taken back (the piece counts, tile sets and hash left as
   they are: nothing reads them at the last ply; a compiler barrier between, the position's codes in memory as made,
   as the generated C makes its leaves). */
static inline void paired_leaf(Board *B, int32_t u, int32_t v) {
    int32_t old = B->codes[u];
    B->codes[u] = v;
    __asm__ __volatile__("" ::: "memory");
    B->codes[u] = old;
}

/* paired_leaf of follow-up x: its one write, from its own tile to it. */
static inline void paired_made(const tp_tables *T, Board *B, int32_t x) {
    int32_t u = T->app_tile[x];
    paired_leaf(B, u, T->maps[(size_t)T->wr_map[T->wr_off[x]] * (size_t)T->nd + (size_t)B->codes[u]]);
}

/* A playout's picked turn among those of paired link l after entry a (at tile s, its writes on the board): the
   follow-up of rank k among those on s or after it that fit, in the walk's order, written, its key made as
   count_chain makes it (keys by changes), and TP_ERR_FOUND; TP_ERR_ARG where none is. */
static int paired_pick(tp_engine *E, const Walk *W, int32_t l, int32_t s, int32_t k) {
    const tp_tables *T = TABLES(E);
    Board *B = W->b;
    int32_t tb = T->lnk_table[l], x = -1;
    if (tb < 0) {
        for (int32_t i = T->tgt_off[l]; x < 0 && i < T->tgt_off[l + 1]; i++)
            if (T->app_tile[T->tgt[i]] >= s && pattern_fits(E, B->codes, T->tgt[i]) && k-- == 0) x = T->tgt[i];
    } else {
        for (int32_t t = s; x < 0 && t < T->n; t++) {
            const int32_t *row = T->ltab_off + ((size_t)tb * (size_t)T->n + (size_t)t) * (size_t)T->nd
                                 + (size_t)B->codes[t];
            for (int32_t i = row[0]; x < 0 && i < row[1]; i++)
                if (pattern_fits(E, B->codes, T->ltab_app[i]) && k-- == 0) x = T->ltab_app[i];
        }
    }
    if (x < 0) return TP_ERR_ARG;
    int32_t u = T->app_tile[x], mark = E->undo_top;
    int r = put(E, B, u, T->maps[(size_t)T->wr_map[T->wr_off[x]] * (size_t)T->nd + (size_t)B->codes[u]]);
    if (r == 0) {
        int32_t nc = collect_changes(E, W);
        r = found_key(E, E->tmp[0], E->tmp[0], nc, 0);
    }
    restore(E, B, mark);
    return r;
}

/* The quick follow-ups of the rule set (quick_leaf): applications with no links, conditions, ray or group captures,
   slide, final, each tile written once, where the rule set has no royal rule, counters, fly-over, step budget or
   maximum rule; their tile sets.  0, or TP_ERR_CAP (no memory).  Cost: one pass over the applications' writes. */
static int quick_tables(tp_engine *E) {
    const tp_tables *T = TABLES(E);
    size_t na = (size_t)T->napps, words = (size_t)E->words;
    E->qk = malloc(na * sizeof(int32_t) + 1);
    if (!E->qk) return TP_ERR_CAP;
    int32_t nq = 0;
    int rule_ok = !T->has_royal && !T->nctr && !T->flies_over && !T->steps && !T->has_maximum;
    for (size_t a = 0; a < na; a++) {
        int ok = rule_ok && T->lnk_off[a + 1] == T->lnk_off[a] && T->app_cond_off[a + 1] == T->app_cond_off[a]
                 && T->app_final[a] && T->app_gc[a] < 0
                 && T->app_slide[a] < 0 && T->app_ray_off[a + 1] == T->app_ray_off[a] && T->wr_off[a + 1] > T->wr_off[a];
        for (int32_t k = T->wr_off[a]; ok && k < T->wr_off[a + 1]; k++)
            for (int32_t j = T->wr_off[a]; ok && j < k; j++) ok = T->wr_tile[j] != T->wr_tile[k];
        E->qk[a] = ok ? nq++ : -1;
    }
    if (!nq) return 0;
    E->qk_tiles = calloc((size_t)nq * words, sizeof(uint64_t));
    E->qk_wr = calloc((size_t)nq * words, sizeof(uint64_t));
    E->qk_delta = calloc((size_t)nq, sizeof(uint64_t));
    E->qk_stamp = calloc((size_t)nq, sizeof(uint64_t));
    E->qk_same = calloc((size_t)nq, 1);
    E->qk_nv = malloc((size_t)T->wr_off[na] * sizeof(int32_t) + 1);
    E->qk_free = calloc((size_t)nq, 1);
    if (!E->qk_tiles || !E->qk_wr || !E->qk_delta || !E->qk_stamp || !E->qk_same || !E->qk_nv || !E->qk_free)
        return TP_ERR_CAP;
    for (size_t a = 0; a < na; a++) {
        if (E->qk[a] < 0) continue;
        uint64_t *m = E->qk_tiles + (size_t)E->qk[a] * words, *w = E->qk_wr + (size_t)E->qk[a] * words;
        int any = 1; /* fits' checks each accept every code (fits_tail: none of its captures) */
        for (int32_t k = T->chk_off[a]; any && k < T->chk_off[a + 1]; k++)
            for (size_t c = 0; any && c < (size_t)T->nd; c++) any = T->masks[(size_t)T->chk_mask[k] * (size_t)T->nd + c];
        E->qk_free[E->qk[a]] = (uint8_t)any;
        for (int32_t k = T->wr_off[a]; k < T->wr_off[a + 1]; k++) {
            int32_t u = T->wr_tile[k], v = T->wr_src[k];
            w[u >> 6] |= 1ULL << (u & 63);
            m[u >> 6] |= 1ULL << (u & 63);
            m[v >> 6] |= 1ULL << (v & 63);
        }
    }
    E->qk_node = 1;
    return 0;
}

/* 1 where the walk's quick follow-ups may be counted by quick_leaf: a count by hash, not a playout's pick, not by
   (start, end), a walk of turns with no tracking, chains or ways. */
static inline int quick_now(const tp_engine *E, const Walk *W) {
    return E->cnt_on && E->cnt_find < 0 && !E->pair_on && W->mode == WALK_TURNS
           && !E->tracking && !E->chains_mode && !E->ways_mode;
}

/* step for quick follow-up a (quick_tables) ending a chain, in a count by hash (quick_now) of a player without
   clean-ups: the hash of the position after it, the board's and its writes' delta (read once per node where none of
   its tiles changed since the node), counted as finish counts it (count_chain) where that hash is new at the node
   and no position of the chain's path, its witness kept from its new values and the chain's undo entries (as
   keep_witness keeps them from the board), its codes written and taken back where the count makes its leaves
   (paired_leaf); where the hash was seen, its writes made and compared as finish compares them; a block left as it
   was ends the chain on the board as it stands (still_step).  1 taken, < 0 an error, or FAST_NO: the general step
   walks it (a hash of the path; no change but a block's). */
static int quick_leaf(tp_engine *E, const Walk *W, int32_t a, int32_t end) {
    const tp_tables *T = TABLES(E);
    const Board *B = W->b;
    int32_t p = W->player, q = E->qk[a];
    if (T->grp_off[p + 1] > T->grp_off[p] || T->mgrp_off[p + 1] > T->mgrp_off[p]) return FAST_NO;
    if (E->qk_cnt_gen != E->cnt_gen) { /* a new node's count */
        E->qk_cnt_gen = E->cnt_gen;
        E->qk_node++;
    }
    size_t words = (size_t)E->words;
    const uint64_t *m = E->qk_tiles + (size_t)q * words, *wm = E->qk_wr + (size_t)q * words;
    int fresh = 1; /* none of a's tiles written since the node: its delta is the node's */
    for (int32_t j = W->undo_base; fresh && j < E->undo_top; j++) {
        int32_t u = E->undo_tile[j];
        fresh = !(m[u >> 6] >> (u & 63) & 1);
    }
    int32_t w0 = T->wr_off[a], nw = T->wr_off[a + 1] - w0;
    size_t nd = (size_t)T->nd;
    uint64_t d;
    int same;
    const int32_t *nv = E->nv; /* a's new values */
    if (fresh && E->qk_stamp[q] == E->qk_node) {
        d = E->qk_delta[q];
        same = E->qk_same[q];
        nv = E->qk_nv + w0;
    } else {
        new_values(E, B, a);
        d = 0;
        same = 1;
        for (int32_t k = 0; k < nw; k++) {
            size_t u = (size_t)T->wr_tile[w0 + k];
            d ^= E->zob[u * nd + (size_t)B->codes[u]] ^ E->zob[u * nd + (size_t)E->nv[k]];
            same &= E->nv[k] == B->codes[u];
        }
        if (fresh) {
            E->qk_stamp[q] = E->qk_node;
            E->qk_delta[q] = d;
            E->qk_same[q] = (uint8_t)same;
            memcpy(E->qk_nv + w0, E->nv, (size_t)nw * sizeof(int32_t));
        }
    }
    int32_t e = T->app_to[a] >= 0 ? T->app_to[a] : end; /* the chain's end, as step passes it to finish */
    if (same && T->app_block[a]) { /* a block left as it was: the chain ends with the board as it stands (still_step,
                                      finish) */
        int r = 0;
        if (B->hash != E->path_hash[W->path_base] || !same_as_at(E, B, W->undo_base)) r = count_chain(E, W, e, 0);
        return r < 0 ? r : 1;
    }
    if (!d) return FAST_NO; /* no change (or one whose delta is 0): the general step decides */
    uint64_t h = B->hash ^ d;
    for (int32_t i = W->path_base; i < E->path_top; i++)
        if (E->path_hash[i] == h) return FAST_NO;
    int32_t start = -1; /* count_chain's key: by changes, else the chain's start and end */
    if (!T->keyed_by_changes) {
        start = W->start;
        uint64_t seed = ((uint64_t)(uint32_t)start << 32) | (uint32_t)e;
        h ^= splitmix(&seed);
    } else {
        e = 0;
    }
    uint32_t mask = (uint32_t)E->ht_size - 1, i = (uint32_t)(h ^ (h >> 32)) & mask;
    for (; E->cnt_stamp[i] == E->cnt_gen; i = (i + 1) & mask)
        if (E->cnt_hash[i] == h) { /* seen: written, and compared as finish compares it (count_turn) */
            int32_t mark = E->undo_top;
            if (E->undo_top + nw > E->undo_cap) return TP_ERR_CAP;
            Board *Bw = W->b;
            for (int32_t k = 0; k < nw; k++) put(E, Bw, T->wr_tile[w0 + k], nv[k]);
            int r = count_chain(E, W, T->app_to[a] >= 0 ? T->app_to[a] : end, 0);
            restore(E, Bw, mark);
            return r < 0 ? r : 1;
        }
    if (2 * (E->cnt_n + 1) > E->ht_size) return TP_ERR_CAP;
    E->cnt_stamp[i] = E->cnt_gen;
    E->cnt_hash[i] = h;
    E->cnt_order[E->cnt_n++] = (int32_t)i;
    if (E->make_leaves) { /* a count that makes its leaves: a's new codes written and taken back (paired_leaf) */
        Board *Bw = W->b;
        for (int32_t k = 0; k < nw; k++) E->tmp[k] = Bw->codes[T->wr_tile[w0 + k]];
        for (int32_t k = 0; k < nw; k++) Bw->codes[T->wr_tile[w0 + k]] = nv[k];
        __asm__ __volatile__("" ::: "memory");
        for (int32_t k = 0; k < nw; k++) Bw->codes[T->wr_tile[w0 + k]] = E->tmp[k];
    }
    if (!E->cnt_dup) return 1;
    /* the witness: the chain's other writes (their codes now), then a's: as pairs, or where its new values are the
       node's (fresh: kept in qk_nv for the node) a alone, len stored as -1 - the pairs (same_turn) */
    int32_t len = fresh ? 0 : nw;
    for (int32_t j = W->undo_base; j < E->undo_top; j++) {
        int32_t u = E->undo_tile[j];
        len += !(wm[u >> 6] >> (u & 63) & 1);
    }
    int32_t size = 4 + 2 * len + fresh;
    if (E->cnt_nwit + size > E->wit_cap) return TP_ERR_CAP;
    E->cnt_woff[i] = E->cnt_nwit;
    int32_t *x = E->cnt_wit + E->cnt_nwit;
    x[0] = start;
    x[1] = e;
    x[2] = 0;
    x[3] = fresh ? -1 - len : len;
    x += 4;
    for (int32_t j = W->undo_base; j < E->undo_top; j++) {
        int32_t u = E->undo_tile[j];
        if (wm[u >> 6] >> (u & 63) & 1) continue;
        *x++ = u;
        *x++ = B->codes[u];
    }
    if (fresh) *x = a;
    for (int32_t k = 0; !fresh && k < nw; k++) {
        *x++ = T->wr_tile[w0 + k];
        *x++ = nv[k];
    }
    E->cnt_nwit += size;
    return 1;
}

/* One more move of the chain: 0 it repeats a position or a slide's tile (not taken), 1 taken, 2 taken and the walk
   stops, < 0 an error.  An attack walk visits a move without forced links before its links (the
   answer, whether some complete chain changes a target, does not depend on the order).  The clean-ups after each
   move run after its writes; where the rule set has a step budget, a chain's moves spend their cost and perft
   --rbg's walk (ways mode) may pass a position again. */
static int step(tp_engine *E, Walk *W, int32_t a, int32_t end, int32_t flagged) {
    const tp_tables *T = TABLES(E);
    Board *B = W->b;
    if (revisits(E, W, a)) return 0;
    if (E->cfol && E->cfol[a] && E->seq_top > W->seq_base && E->cnt_on && !E->cnt_dup
        && !E->make_leaves && !E->pair_on && W->mode == WALK_TURNS && !E->tracking && !E->chains_mode && !E->ways_mode) {
        int r = closed_follow(E, W, a, end); /* a later move whose links are shut: counted unwritten */
        if (r != FAST_NO) return r;
    }
    if (E->seq_top == W->seq_base && W->mode == WALK_TURNS && !E->tracking) { /* the chain's first move */
        if (E->leaf[a] && !E->chains_mode && !E->ways_mode) {
            int r = step_leaf(E, W, a);
            if (r != FAST_NO) return r;
        }
        if (E->cond_leaf[a] && E->cnt_on) {
            int r = step_cond_leaf(E, W, a);
            if (r != FAST_NO) return r;
        }
    }
    if (E->qk[a] >= 0 && E->seq_top > W->seq_base && quick_now(E, W)) {
        int r = quick_leaf(E, W, a, end); /* a follow-up ending its chain, counted by hash without its writes */
        if (r != FAST_NO) return r;
    }
    int32_t mark = E->undo_top;
    int32_t nw = new_values(E, B, a), ncap = 0;
    if (T->app_block[a]) { /* a block move that leaves its block as it was: taken, and the chain ends there */
        int32_t k = 0;
        while (k < nw && E->nv[k] == B->codes[T->wr_tile[T->wr_off[a] + k]]) k++;
        if (k == nw) return still_step(E, W, a, end, flagged);
    }
    if (T->app_ray_off[a + 1] > T->app_ray_off[a]) captures(T, B->codes, a, E->capbuf, &ncap);
    int32_t ngc = T->app_gc[a] >= 0 ? group_captures(E, B->codes, a, E->gcbuf, NULL) : 0;
    if (E->undo_top + nw + ncap + ngc > E->undo_cap) return TP_ERR_CAP;
    if (E->tracking) track_app(E, a);
    int fresh = 0; /* raw: a new code on a tile the chain never wrote (raw_stands) */
    if (E->raw) { /* a count's chain: its writes on the codes alone (raw_ready) */
        for (int32_t k = 0; k < nw && !fresh; k++) {
            int32_t u = T->wr_tile[T->wr_off[a] + k];
            fresh = !E->raw_w[u] && E->nv[k] != B->codes[u];
        }
        for (int32_t k = 0; k < nw; k++) put_raw(E, B, T->wr_tile[T->wr_off[a] + k], E->nv[k]);
    } else
        for (int32_t k = 0; k < nw; k++) put(E, B, T->wr_tile[T->wr_off[a] + k], E->nv[k]);
    for (int32_t k = 0; k < ncap; k++) put(E, B, E->capbuf[2 * k], E->capbuf[2 * k + 1]);
    for (int32_t k = 0; k < ngc; k++) put(E, B, E->gcbuf[k], T->gc_becomes[T->app_gc[a]]);
    int32_t mg0 = T->mgrp_off[W->player], mg1 = T->mgrp_off[W->player + 1];
    if (mg1 > mg0) { /* the clean-ups after each move (when = "move") */
        int rc = run_groups(E, B, mg0, mg1);
        if (rc < 0) {
            unwrite(E, B, mark);
            return rc;
        }
    }
    /* where a slide may fly over the chain's stops (chains.py): a position the chain stopped at may only be flown
       over by a slide (no stop, no other link there), and one a slide only flew through (a mid level) is a stop
       for the move that lands there */
    int32_t landed = -1, slide = T->app_slide[a];
    int fly = 0, took = 0;
    if (!T->flies_over) {
        /* a position on the path is read as where flies_over: a move may land where a slide only flew through,
           and only a slide may fly over a stop (path_mid is kept in every rule set) */
        if (!(T->steps && E->ways_mode && W->mode == WALK_TURNS)
            && (E->raw ? raw_stands(E, W, fresh, &landed) : stands(E, W, &landed))) {
            fly = landed < 0;
            if (fly && slide < 0) {
                unwrite(E, B, mark);
                return 0;
            }
        } else if (E->cnt_on && !E->raw && (E->leaf[a] || E->cond_leaf[a]) && !T->steps && T->app_slide[a] < 0 && !T->app_block[a]
            && W->mode == WALK_TURNS && !E->tracking && T->grp_off[W->player + 1] == T->grp_off[W->player]) {
            int r = closed_count(E, W, a, end);
            if (r != FAST_NO) {
                unwrite(E, B, mark);
                return r;
            }
        }
    } else if (E->raw ? raw_stands(E, W, fresh, &landed) : stands(E, W, &landed)) {
        fly = landed < 0;
        if (fly && slide < 0) {
            unwrite(E, B, mark);
            return 0;
        }
    }
    int r = push_level(E, B);
    if (r < 0) {
        unwrite(E, B, mark);
        return r;
    }
    int32_t level = E->path_top - 1;
    if (landed >= 0) E->path_mid[landed] = 0;
    int32_t len0 = 0, tile0 = 0, label = E->chains_mode && W->mode == WALK_TURNS;
    if (label) extend_label(E, W, a, &len0, &tile0);
    E->seq[E->seq_top++] = a;
    if (T->app_to[a] >= 0) end = T->app_to[a];
    flagged |= T->app_flag[a];
    int stop = 0, must = 0, visited = 0;
    int32_t left = T->steps;
    for (int32_t i = W->seq_base; T->steps && i < E->seq_top; i++) left -= T->app_cost[E->seq[i]];
    if (W->mode == WALK_ATTACK && !E->forced[a] && !fly) {
        visited = 1;
        stop = touched(W);
    }
    int first = E->seq_top - 1 == W->seq_base && W->mode == WALK_TURNS && !E->ways_mode && !E->chains_mode
                && !E->tracking; /* the entry of a chain of turns: its follow-ups may come in one order (once) */
    uint32_t loop = T->lnk_off[a + 1] > T->lnk_off[a] ? next_loop(E) : 0; /* the board each follow-up is read on */
    for (int32_t l = T->lnk_off[a]; !stop && l < T->lnk_off[a + 1]; l++) {
        if (!link_open(E, B, l, T->app_to[a] >= 0 ? T->app_to[a] : T->app_tile[a], W->player)) continue;
        int32_t tb = T->lnk_table[l];
        /* where the entry's two-move chains come in both orders (once), the follow-ups on tiles before its own are not
           walked (the other order, from an earlier entry, gives their turns); a forced link is still taken where one
           fits */
        int once = E->once[l] && first;
        if (first && E->paired[l] && !fly && !E->pair_on && (E->plain_on || E->cnt_on)) {
            /* a count's last ply: each follow-up on the entry's tile or after it that fits is a turn no other chain
               makes (paired_links), counted, made only where the count makes its leaves (paired_leaf); those before
               it as once leaves them out.  In a playout's count by hash, their turns are ranks in cnt_order (-1 - the
               rank among the link's), the picked one found again as the walk's order has it (paired_pick) */
            int32_t got = 0, s = T->app_tile[a];
            if (!E->plain_on && E->cnt_find >= 0 && E->cnt_order[E->cnt_find] < 0) {
                r = paired_pick(E, W, l, s, -1 - E->cnt_order[E->cnt_find]);
                goto out;
            }
            if (E->pair_code[l] >= 0 && (!E->make_leaves || E->pair_write[l] >= 0)) {
                /* the tiles holding the code they read, on or after s, counted (made: each written) */
                const uint64_t *f = E->pair_bits + (size_t)l * (size_t)E->words;
                const uint64_t *on = B->bits + (size_t)E->pair_code[l] * (size_t)E->words;
                int32_t sw = s >> 6, early = 0;
                uint64_t from = ~0ULL << (s & 63);
                for (int32_t w = 0; w < E->words; w++) {
                    uint64_t m = on[w] & f[w];
                    uint64_t after = w < sw ? 0 : w == sw ? from : ~0ULL;
                    got += __builtin_popcountll(m & after);
                    early |= (m & ~after) != 0;
                    for (uint64_t b = E->make_leaves ? m & after : 0; b; b &= b - 1)
                        paired_leaf(B, 64 * w + __builtin_ctzll(b), E->pair_write[l]);
                }
                if (early && T->lnk_forced[l] && !must) must = took = 1;
            } else if (tb < 0) {
                for (int32_t k = T->tgt_off[l]; k < T->tgt_off[l + 1]; k++) {
                    int32_t x = T->tgt[k];
                    if (T->app_tile[x] < s) {
                        if (T->lnk_forced[l] && !must) must = took = fits(E, B->codes, x);
                    } else if (pattern_fits(E, B->codes, x)) {
                        if (E->make_leaves) paired_made(T, B, x);
                        got++;
                    }
                }
            } else {
                for (int32_t t = 0; t < T->n; t++) {
                    const int32_t *row = T->ltab_off + ((size_t)tb * (size_t)T->n + (size_t)t) * (size_t)T->nd
                                         + (size_t)B->codes[t];
                    for (int32_t k = row[0]; k < row[1]; k++) {
                        int32_t x = T->ltab_app[k];
                        if (t < s) {
                            if (T->lnk_forced[l] && !must) must = took = fits(E, B->codes, x);
                        } else if (pattern_fits(E, B->codes, x)) {
                            if (E->make_leaves) paired_made(T, B, x);
                            got++;
                        }
                    }
                }
            }
            if (E->plain_on) {
                E->solo_legal += got;
            } else if (E->cnt_find < 0) {
                if (2 * (E->cnt_n + got + 1) > E->ht_size) {
                    r = TP_ERR_CAP;
                    goto out;
                }
                for (int32_t j = 0; j < got; j++) E->cnt_order[E->cnt_n++] = -1 - j;
            }
            if (got) took = 1;
            if (got && T->lnk_forced[l]) must = 1;
            continue;
        }
        if (tb < 0) {
            int quick = !fly && quick_now(E, W); /* follow-ups counted by quick_leaf where they fit */
            for (int32_t k = T->tgt_off[l]; k < T->tgt_off[l + 1] && !stop; k++) {
                if (once && T->app_tile[T->tgt[k]] < T->app_tile[a]) { /* the other way round gives its turn */
                    if (T->lnk_forced[l] && !must) must = took = fits(E, B->codes, T->tgt[k]);
                    continue;
                }
                int32_t b = T->tgt[k];
                r = FAST_NO;
                if (quick && E->qk[b] >= 0) { /* follow's and step's tests read as they answer for it: no step
                                                 cost, slide or conditions */
                    if (!E->qk_free[E->qk[b]] && !fits(E, B->codes, b)) continue;
                    r = quick_leaf(E, W, b, end);
                }
                E->cf_cur = loop;
                if (r == FAST_NO) r = follow(E, W, b, slide, fly, level, end, flagged, left);
                if (r < 0) goto out;
                took |= r > 0;
                stop = r == 2;
                if (r && T->lnk_forced[l]) must = 1;
            }
            continue;
        }
        /* an anywhere link read through its table: the follow-ups placed on each tile for the code it holds (those
           within the step budget: budget_rows) */
        const int32_t *loff, *lapp;
        if (!budget_rows(E, tb, left, &loff, &lapp)) continue;
        int32_t t0 = 0, s0 = -1;
        int lean = 0; /* the apart second slides counted on the codes (apart_step) */
        if (E->apart && E->apart[l] && W->mode == WALK_TURNS && !E->ways_mode && !E->chains_mode && !E->tracking
            && T->app_slide[E->seq[W->seq_base]] == slide) { /* two slides apart come in both orders (apart_slides) */
            size_t words = (size_t)E->words;
            s0 = T->app_tile[E->seq[W->seq_base]];
            memset(E->apart_fa, 0, words * sizeof *E->apart_fa);
            for (int32_t i = W->seq_base; i < E->seq_top; i++) {
                int32_t b = E->seq[i];
                for (int32_t k = T->chk_off[b]; k < T->chk_off[b + 1]; k++)
                    E->apart_fa[T->chk_tile[k] / 64] |= (uint64_t)1 << (T->chk_tile[k] % 64);
                for (int32_t k = T->wr_off[b]; k < T->wr_off[b + 1]; k++)
                    E->apart_fa[T->wr_tile[k] / 64] |= (uint64_t)1 << (T->wr_tile[k] % 64);
            }
            lean = E->cnt_on && !fly && !E->pair_on && T->grp_off[W->player + 1] == T->grp_off[W->player];
            if (lean) {
                E->apart_nfc = collect_changes(E, W);
                memcpy(E->apart_fc, E->tmp, 3 * (size_t)E->apart_nfc * sizeof *E->tmp);
                E->apart_fr = 0;
                for (int32_t i = W->seq_base; T->nctr && i < E->seq_top; i++) E->apart_fr |= T->app_reset[E->seq[i]];
            }
        }
        if (once) {
            t0 = T->app_tile[a];
            for (int32_t t = 0; T->lnk_forced[l] && !must && t < t0; t++) {
                const int32_t *row = loff + ((size_t)tb * (size_t)T->n + (size_t)t) * (size_t)T->nd + (size_t)B->codes[t];
                for (int32_t k = row[0]; k < row[1] && !must; k++) must = took = fits(E, B->codes, lapp[k]);
            }
        }
        int quick = !fly && quick_now(E, W); /* follow-ups counted by quick_leaf where they fit */
        for (int32_t t = t0; t < T->n && !stop; t++) {
            const int32_t *row = loff + ((size_t)tb * (size_t)T->n + (size_t)t) * (size_t)T->nd + (size_t)B->codes[t];
            for (int32_t k = row[0]; k < row[1] && !stop; k++) {
                if (t < s0 && slides_apart(E, lapp[k])) { /* the other order, from the entry at t, gives its turns */
                    if (T->lnk_forced[l] && !must) must = took = fits(E, B->codes, lapp[k]);
                    continue;
                }
                int32_t b = lapp[k];
                if (lean && E->meet_ok[b] && slides_apart(E, b)) { /* follow's tests: the step fits (no conditions,
                                                                       budget) */
                    if (!fits(E, B->codes, b)) continue;
                    r = apart_second(E, W, b);
                } else {
                    r = FAST_NO;
                    if (lean && E->meet_ok[b]) {
                        if (!fits(E, B->codes, b)) continue;
                        r = apart_meet(E, W, b);
                    }
                    if (r == FAST_NO && quick && E->qk[b] >= 0) { /* follow's and step's tests read as they answer
                                                                     for it: no step cost, slide or conditions */
                        if (!E->qk_free[E->qk[b]] && !fits(E, B->codes, b)) continue;
                        r = quick_leaf(E, W, b, end);
                    }
                    if (r == FAST_NO) {
                        E->cf_cur = loop;
                        r = follow(E, W, b, slide, fly, level, end, flagged, left);
                    }
                }
                if (r < 0) goto out;
                took |= r > 0;
                stop = r == 2;
                if (r && T->lnk_forced[l]) must = 1;
            }
        }
    }
    r = 0;
    if (!stop && !must && !visited && !fly) {
        if (W->mode == WALK_ATTACK)
            stop = touched(W);
        else
            r = finish(E, W, end, flagged);
        if (r >= 0 && E->pair_hops && E->pair_on && E->cnt_on && E->cnt_find < 0 && T->lnk_off[a + 1] > T->lnk_off[a]
            && W->mode == WALK_TURNS) /* the follow-ups on a's `to` tile walked from this start (pair_seen) */
            E->hop_stamp[(size_t)W->start * (size_t)T->n + (size_t)T->app_to[a]] = E->hop_gen;
    }
out:
    E->seq_top--;
    if (label) undo_label(E, len0, tile0);
    E->path_top--;
    if (landed >= 0) E->path_mid[landed] = 1;
    unwrite(E, B, mark);
    if (r < 0) return r;
    return stop ? 2 : fly && !took ? 0 : 1;
}

/* Entry gi of an attack index row, its tile holding code c, for attacker W->player: each of its applications whose
   codes c is among and that fits (once per attack test, stamp g), walked by step; 2 when a chain changes a target,
   < 0 an error, else 0. */
static inline int attack_walk(tp_engine *E, Walk *W, int32_t gi, size_t c, uint32_t g, int track) {
    const tp_tables *T = TABLES(E);
    size_t nd = (size_t)T->nd;
    if (track) E->at_rbits[T->att_tile[gi] >> 6] |= 1ULL << (T->att_tile[gi] & 63);
    for (int32_t k = T->att_app_off[gi]; k < T->att_app_off[gi + 1]; k++) {
        int32_t a = T->att_app[k];
        if (!T->masks[(size_t)T->att_app_mask[k] * nd + c] || E->astamp[a] == g) continue;
        E->astamp[a] = g;
        if (track) track_app(E, a);
        if (!fits(E, W->b->codes, a)) continue;
        W->start = T->app_tile[a];
        int r = step(E, W, a, W->start, 0);
        if (r < 0 || r == 2) return r;
    }
    return 0;
}

/* attack_walk's answer for entry gi (code c) where the engine keeps its walks (ak_code) and the test has one target:
   the kept answer where every tile the kept walk read holds the code it held then (a walk reads only those: the
   tracking memo_attack's answer rests on, ak_proof; the stamps g skip nothing with one target, whose row holds each
   application once), the tiles marked read when tracked; else walked with its reads tracked apart and kept (in
   place of the kept walk that did not answer last: AC_WAYS per entry) where they are at most AC_READS tiles.
   Cost: a compare per tile read, against a walk (a slide's: some 1,700 instructions). */
static int attack_kept(tp_engine *E, Walk *W, int32_t gi, size_t c, uint32_t g, int track) {
    const int32_t *codes = W->b->codes;
    size_t words = (size_t)E->words;
    for (int32_t way = 0; way < AC_WAYS; way++) {
        size_t s = (size_t)gi * AC_WAYS + (size_t)way, o = s * AC_READS;
        if (E->ak_code[s] != (int32_t)c) continue;
        int32_t k = 0, nr = E->ak_n[s];
        while (k < nr && codes[E->ak_tile[o + (size_t)k]] == E->ak_val[o + (size_t)k]) k++;
        if (k < nr) continue;
        for (k = 0; track && k < nr; k++) E->at_rbits[E->ak_tile[o + (size_t)k] >> 6] |= 1ULL << (E->ak_tile[o + (size_t)k] & 63);
        E->ak_last[gi] = (uint8_t)way;
        return E->ak_hit[s] ? 2 : 0;
    }
    memcpy(E->ak_save, E->at_rbits, words * sizeof *E->ak_save);
    memset(E->at_rbits, 0, words * sizeof *E->at_rbits);
    int32_t was = E->tracking, t = W->targets[0];
    E->tracking = TRACK_ATTACK;
    int r = attack_walk(E, W, gi, c, g, 1);
    E->tracking = was;
    E->at_rbits[t >> 6] |= 1ULL << (t & 63);
    int32_t nr = 0;
    for (size_t w = 0; w < words; w++) nr += __builtin_popcountll(E->at_rbits[w]);
    int32_t way = AC_WAYS - 1 - E->ak_last[gi]; /* the way not answered last */
    size_t s = (size_t)gi * AC_WAYS + (size_t)way, o = s * AC_READS;
    E->ak_code[s] = -1;
    if (r >= 0 && nr <= AC_READS) {
        nr = 0;
        for (size_t w = 0; w < words; w++)
            for (uint64_t m = E->at_rbits[w]; m; m &= m - 1) {
                int32_t u = (int32_t)(w * 64 + (size_t)__builtin_ctzll(m));
                E->ak_tile[o + (size_t)nr] = u;
                E->ak_val[o + (size_t)nr++] = codes[u];
            }
        E->ak_n[s] = (uint8_t)nr;
        E->ak_hit[s] = r == 2;
        E->ak_code[s] = (int32_t)c;
        E->ak_last[gi] = (uint8_t)way;
    }
    for (size_t w = 0; w < words; w++) E->at_rbits[w] = E->ak_save[w] | (track ? E->at_rbits[w] : 0);
    return r;
}

/* attack_walk where the entry's mask accepts c, through attack_kept where the engine keeps the walks (not inside a
   clean-up run's tracking, whose memo must see the walk's reads; not in a count of paired links, whose walks skip
   what the count saw). */
static inline int attack_entry(tp_engine *E, Walk *W, int32_t gi, size_t c, uint32_t g, int track) {
    const tp_tables *T = TABLES(E);
    if (!T->masks[(size_t)T->att_mask[gi] * (size_t)T->nd + c]) return 0;
    if (E->ak_code && W->ntargets == 1 && E->tracking != TRACK_CLEANUPS && !E->pair_on)
        return attack_kept(E, W, gi, c, g, track);
    return attack_walk(E, W, gi, c, g, track);
}

/* attacked's walk for attacker q set up (W, its stamps g) and its level pushed; < 0 an error. */
static inline int attack_level(tp_engine *E, Board *B, Walk *W, uint32_t *g, int32_t q, const int32_t *targets,
                               int32_t nt) {
    *W = (Walk){B, q, WALK_ATTACK, E->path_top, E->undo_top, E->seq_top, -1, targets, E->tbase, nt};
    *g = next_gen(&E->agen, E->astamp, (size_t)TABLES(E)->napps);
    return push_level(E, B);
}

/* Chains.attacked: 1 when a player other than p has a complete chain changing one of the targets.  Where the engine
   keeps the attack index as bit sets (att_bits: boards of up to ATT_MAX tiles), each target's row visits only its
   entry tiles holding a code some entry of q accepts (att_codes), in tile order, and with att_acc only those whose
   own entry accepts it: the entries it passes over hold a code their mask refuses; else every entry of the row.  Tracked (the node's royal test) without att_acc, every entry
   tile of a row is stamped as scanned, with its mask (attack_reads; with att_acc, memo_attack reads the rows'). */
static int attacked(tp_engine *E, Board *B, const int32_t *targets, int32_t nt, int32_t p) {
    const tp_tables *T = TABLES(E);
    size_t words = (size_t)E->words, nd = (size_t)T->nd;
    int track = E->tracking == TRACK_ATTACK;
    for (int32_t i = 0; i < nt; i++) {
        E->tbase[i] = B->codes[targets[i]];
        if (track) E->at_rbits[targets[i] >> 6] |= 1ULL << (targets[i] & 63);
    }
    for (int32_t q = 0; q < T->np; q++) {
        if (q == p) continue;
        Walk W; /* its level and stamps set up before the first entry walked (most tests walk none) */
        uint32_t g = 0;
        int r = 0, level = 0;
        for (int32_t i = 0; i < nt && r == 0; i++) {
            int32_t row = q * T->n + targets[i];
            for (int32_t gi = T->att_off[row]; track && !E->att_acc && gi < T->att_off[row + 1]; gi++) {
                int32_t gt = T->att_tile[gi]; /* a tile scanned here may later hold a code that starts an attack */
                E->at_gat[gt] = E->at_gstamp[gt] == E->at_gen ? -1 : T->att_mask[gi];
                E->at_gstamp[gt] = E->at_gen;
            }
            if (!E->att_bits) {
                if (!level++ && attack_level(E, B, &W, &g, q, targets, nt) < 0) return TP_ERR_CAP;
                for (int32_t gi = T->att_off[row]; gi < T->att_off[row + 1] && r == 0; gi++)
                    r = attack_entry(E, &W, gi, (size_t)B->codes[T->att_tile[gi]], g, track);
                continue;
            }
            const uint64_t *rb = E->att_bits + (size_t)row * words;
            const uint64_t *acc = E->att_acc ? E->att_acc + (size_t)row * nd * words : NULL;
            const int32_t *pos = E->att_pos + (size_t)row * (size_t)T->n;
            for (size_t w = 0; w < words && r == 0; w++) {
                uint64_t m = 0;
                if (acc) { /* the entry tiles whose entry accepts the code they hold */
                    for (int32_t k = E->att_code_off[q]; k < E->att_code_off[q + 1]; k++) {
                        size_t c = (size_t)E->att_codes[k] * words + w;
                        m |= B->bits[c] & acc[c];
                    }
                    m &= rb[w]; /* acc holds every tile for a royal code of the defender */
                } else {
                    for (int32_t k = E->att_code_off[q]; k < E->att_code_off[q + 1]; k++) m |= B->bits[(size_t)E->att_codes[k] * words + w];
                    m &= rb[w];
                }
                for (; m && r == 0; m &= m - 1) {
                    int32_t gt = (int32_t)(w * 64 + (size_t)__builtin_ctzll(m));
                    if (!level++ && attack_level(E, B, &W, &g, q, targets, nt) < 0) return TP_ERR_CAP;
                    r = attack_entry(E, &W, pos[gt], (size_t)B->codes[gt], g, track);
                }
            }
        }
        if (level) E->path_top--;
        if (r < 0) return r;
        if (r == 2) return 1;
    }
    return 0;
}

/* Chains.royal_safe, the probe part: no safe tile of a move of the chain attacked before the turn,
   with the mover's royal piece standing in on it. */
static int safe_ok(tp_engine *E, const Walk *W) {
    const tp_tables *T = TABLES(E);
    Board *S = &E->scratch;
    for (int32_t i = W->seq_base; i < E->seq_top; i++) {
        int32_t a = E->seq[i], s0 = T->safe_off[a], s1 = T->safe_off[a + 1];
        if (s0 == s1) continue;
        /* the position before the turn: the current one (codes, counts, tile sets, hash copied) with every write
           since the walk's start undone, a few set_tile calls rather than a recount of the board */
        const Board *B = W->b;
        memcpy(S->codes, B->codes, (size_t)T->n * sizeof *S->codes);
        memcpy(S->count, B->count, (size_t)T->nd * sizeof *S->count);
        memcpy(S->bits, B->bits, (size_t)T->nd * (size_t)E->words * sizeof *S->bits);
        S->hash = B->hash;
        for (int32_t j = E->undo_top - 1; j >= W->undo_base; j--) set_tile(E, S, E->undo_tile[j], E->undo_old[j]);
        for (int32_t k = s0; k < s1; k++) {
            int32_t u = T->safe_tile[k];
            if (!T->royal_any[S->codes[u]]) set_tile(E, S, u, T->probe[W->player]);
        }
        int r = attacked(E, S, T->safe_tile + s0, s1 - s0, W->player);
        if (r) return r < 0 ? r : 0;
    }
    return 1;
}

/* The chain's changes since the walk's start, sorted by tile, into E->tmp as (tile, new, old). */
static int32_t collect_changes(tp_engine *E, const Walk *W) {
    const Board *B = W->b;
    uint32_t g = next_gen(&E->tgen, E->tstamp, (size_t)TABLES(E)->n);
    int32_t nc = 0;
    for (int32_t j = W->undo_base; j < E->undo_top; j++) {
        int32_t u = E->undo_tile[j];
        if (E->tstamp[u] == g) continue;
        E->tstamp[u] = g;
        if (B->codes[u] == E->undo_old[j]) continue;
        int32_t *x = E->tmp + 3 * nc;
        int32_t i = nc++;
        for (; i > 0 && x[-3] > u; i--, x -= 3) memcpy(x, x - 3, 3 * sizeof *x);
        x[0] = u;
        x[1] = B->codes[u];
        x[2] = E->undo_old[j];
    }
    return nc;
}

/* A new key of the node (start, end, the changes in E->tmp), its index or TP_ERR_CAP. */
static inline int32_t new_key(tp_engine *E, uint64_t h, int32_t start, int32_t end, int32_t nc) {
    if (E->nkeys >= E->key_cap || E->nchg + nc > E->chg_cap) return TP_ERR_CAP;
    int32_t k = E->nkeys++;
    Key *K = &E->keys[k];
    memset(K, 0, sizeof *K);
    K->hash = h;
    K->start = start;
    K->end = end;
    K->off = E->nchg;
    K->len = nc;
    K->next = -1;
    K->best = -1;
    for (int32_t c = 0; c < nc; c++) {
        E->chg[2 * (E->nchg + c)] = E->tmp[3 * c];
        E->chg[2 * (E->nchg + c) + 1] = E->tmp[3 * c + 1];
    }
    E->nchg += nc;
    E->node_keys++;
    K->pos_ok = 2; /* not tested yet */
    return k;
}

/* The node's key of the turn from `start` to `end` with the changes in E->tmp (nc of them, sorted by tile), made
   when new; h is their hash where the node's keys are told apart by hash (E->se_now 0), unused where they are
   told apart by start and end (a short list per pair: most pairs hold one turn, no hash needed).  A list longer
   than SE_LONG (many chains ending alike: amazons' shots, one end tile reached from many stops) sends the engine's
   later nodes to the hash table. */
static int32_t find_key(tp_engine *E, uint64_t h, int32_t start, int32_t end, int32_t nc) {
    if (E->se_now) {
        size_t b = (size_t)start * (size_t)TABLES(E)->n + (size_t)end;
        int32_t first = E->se_gen[b] == E->segen ? E->se_head[b] : -1, seen = 0;
        for (int32_t j = first; j >= 0; j = E->keys[j].next) {
            const Key *K = &E->keys[j];
            if (++seen > SE_LONG) E->se_long = 1;
            if (K->len != nc) continue;
            int32_t c = 0;
            for (; c < nc; c++)
                if (E->chg[2 * (K->off + c)] != E->tmp[3 * c] || E->chg[2 * (K->off + c) + 1] != E->tmp[3 * c + 1]) break;
            if (c == nc) return j;
        }
        int32_t k = new_key(E, 0, start, end, nc);
        if (k < 0) return k;
        E->keys[k].next = first;
        E->se_head[b] = k;
        E->se_gen[b] = E->segen;
        return k;
    }
    uint32_t mask = (uint32_t)E->ht_size - 1;
    for (uint32_t i = (uint32_t)h & mask;; i = (i + 1) & mask) {
        if (E->ht_gen[i] != E->gen) {
            if (2 * (E->node_keys + 1) > E->ht_size) return TP_ERR_CAP;
            int32_t k = new_key(E, h, start, end, nc);
            if (k < 0) return k;
            E->ht_gen[i] = E->gen;
            E->ht[i] = k;
            return k;
        }
        const Key *K = &E->keys[E->ht[i]];
        if (K->hash != h || K->start != start || K->end != end || K->len != nc) continue;
        int32_t c = 0;
        for (; c < nc; c++)
            if (E->chg[2 * (K->off + c)] != E->tmp[3 * c] || E->chg[2 * (K->off + c) + 1] != E->tmp[3 * c + 1]) break;
        if (c == nc) return E->ht[i];
    }
}

/* The node's clean-ups run on its own position with tracking, then undone (cm_ok = 0 when that fails). */
static int memo_cleanups(tp_engine *E, Board *B, int32_t p) {
    int32_t mark = E->undo_top;
    next_gen(&E->cm_gen, E->cm_tread, (size_t)TABLES(E)->n);
    if (E->cm_gen == 1) memset(E->cm_cread, 0, (size_t)TABLES(E)->nd * sizeof *E->cm_cread);
    E->cm_len = 0;
    E->tn_n = E->tn_next = 0;
    E->tracking = TRACK_CLEANUPS;
    int r = run_cleanups(E, B, p);
    E->tracking = TRACK_NONE;
    restore(E, B, mark);
    E->cm_ok = r == 0;
    /* the net writes: each tile's last code, where it differs from the node's, sorted by tile */
    uint32_t g = next_gen(&E->tgen, E->tstamp, (size_t)TABLES(E)->n);
    E->cn_len = 0;
    for (int32_t i = E->cm_len - 1; E->cm_ok && i >= 0; i--) {
        int32_t u = E->cm_tile[i], v = E->cm_code[i];
        if (E->tstamp[u] == g) continue;
        E->tstamp[u] = g;
        if (v == B->codes[u]) continue;
        int32_t *x = E->cn + 3 * E->cn_len;
        int32_t j = E->cn_len++;
        for (; j > 0 && x[-3] > u; j--, x -= 3) memcpy(x, x - 3, 3 * sizeof *x);
        x[0] = u;
        x[1] = v;
        x[2] = B->codes[u];
    }
    E->cn_hash = 0;
    for (int32_t i = 0; i < E->cn_len; i++)
        E->cn_hash ^= E->zob[(size_t)E->cn[3 * i] * (size_t)TABLES(E)->nd + (size_t)E->cn[3 * i + 1]];
    return r == TP_ERR_CAP ? r : 0; /* no fixpoint: each chain runs its clean-ups and meets the error itself */
}

/* 1 when the memo_turn slot m answers for the turn of p whose changes are in E->tmp (nc of them, sorted by tile; the
   board as at the node): the slot's player and turn, and the node holds what it held where the slot's run was kept
   on each tile and code that run read (so the board after the turn holds what the run read).  Cost: a step per
   change, tile and code word. */
static int memo_turn_fits(const tp_engine *E, const Board *B, const TurnMemo *m, const uint64_t *bits, int32_t p,
                          int32_t nc) {
    size_t words = (size_t)E->words;
    if (m->p != p || m->nx != nc) return 0;
    for (int32_t c = 0; c < 3 * nc; c++)
        if (m->x[c] != E->tmp[c]) return 0;
    for (int32_t i = 0; i < m->nt; i++)
        if (B->codes[m->tile[2 * i]] != m->tile[2 * i + 1]) return 0;
    for (int32_t k = 0; k < m->nk; k++) {
        int32_t code = m->code[2 * k];
        if (B->count[code] != m->code[2 * k + 1]) return 0;
        for (size_t w = 0; w < words; w++)
            if (B->bits[(size_t)code * words + w] != bits[(size_t)k * words + w]) return 0;
    }
    return 1;
}

/* 1 when the memo_turn slot m, which answered the node's turn x (nx (tile, code) pairs, by tile), answers for the
   turn whose changes are in E->tmp (nc, by tile): each tile where the boards after the two turns differ is none the
   slot's run read, and holds on neither a code it read.  Cost: a step per change, times the slot's reads where its
   sieve (tb, cb) holds the tile or a code. */
static int memo_node_fits(const tp_engine *E, const Board *B, const TurnMemo *m, const int32_t *x, int32_t nx,
                          int32_t nc) {
    int32_t i = 0, j = 0;
    while (i < nx || j < nc) {
        int32_t u, c1, c2;
        if (j >= nc || (i < nx && x[2 * i] < E->tmp[3 * j])) {
            u = x[2 * i];
            c1 = x[2 * i + 1];
            c2 = B->codes[u];
            i++;
        } else if (i >= nx || E->tmp[3 * j] < x[2 * i]) {
            u = E->tmp[3 * j];
            c1 = B->codes[u];
            c2 = E->tmp[3 * j + 1];
            j++;
        } else {
            u = x[2 * i];
            c1 = x[2 * i + 1];
            c2 = E->tmp[3 * j + 1];
            i++;
            j++;
        }
        if (c1 == c2) continue;
        if (m->tb >> (u & 63) & 1)
            for (int32_t k = 0; k < m->nt; k++)
                if (m->tile[2 * k] == u) return 0;
        if ((m->cb >> (c1 & 63) | m->cb >> (c2 & 63)) & 1)
            for (int32_t k = 0; k < m->nk; k++)
                if (m->code[2 * k] == c1 || m->code[2 * k] == c2) return 0;
    }
    return 1;
}

/* The node's reference to slot m, answering the turn x (nc changes: tile, code, old code), for memo_node_fits. */
static void memo_node_keep(tp_engine *E, const TurnMemo *m, const int32_t *x, int32_t nc) {
    int32_t s = E->tn_next;
    E->tn_node[s] = E->cm_gen;
    E->tn_idx[s] = (int32_t)(m - E->tm);
    E->tn_ver[s] = m->ver;
    E->tn_nx[s] = nc;
    for (int32_t c = 0; c < nc; c++) {
        E->tn_x[s][2 * c] = x[3 * c];
        E->tn_x[s][2 * c + 1] = x[3 * c + 1];
    }
    E->tn_next = (s + 1) % TM_NODE;
    if (E->tn_n < TM_NODE) E->tn_n++;
}

/* The turn in E->tmp (nc changes) with the writes of slot m's run: its net changes into E->tmp, their number. */
static int32_t memo_turn_apply(tp_engine *E, const Board *B, const TurnMemo *m, int32_t nc) {
    int32_t out[3 * 2 * TM_MAXW], no = 0, i = 0, j = 0, nw = m->nw;
    const int32_t *w = m->w;
    while (i < nc || j < nw) { /* the turn's changes, each tile the run wrote holding the run's code */
        int32_t u, v;
        if (j >= nw || (i < nc && E->tmp[3 * i] < w[2 * j])) {
            u = E->tmp[3 * i];
            v = E->tmp[3 * i + 1];
            i++;
        } else {
            u = w[2 * j];
            v = w[2 * j + 1];
            if (i < nc && E->tmp[3 * i] == u) i++;
            j++;
        }
        if (v == B->codes[u]) continue;
        out[3 * no] = u;
        out[3 * no + 1] = v;
        out[3 * no + 2] = B->codes[u];
        no++;
    }
    memcpy(E->tmp, out, 3 * (size_t)no * sizeof *out);
    return no;
}

/* The turn clean-ups of p on the board after the turn whose changes are in E->tmp (nc of them, sorted by tile; the
   board as at the node), where the node's memo does not answer (memo_merge 0): the turn's net changes with the
   clean-ups' writes into E->tmp as collect_changes leaves them, their number (0: no change), or < 0 an error.  The
   slot of the turn's changes answers where the board after the turn holds what its run read (memo_turn_fits: the
   run would read and write the same); else the turn is written, its clean-ups run (tracked as memo_cleanups tracks
   the node's, and kept in the slot where what they read and wrote fits it) and taken back.  A turn that drops a
   right the clean-ups keep (castling's king or rook leaving its tile) is run once, not once per node. */
static int32_t memo_turn(tp_engine *E, Board *B, int32_t p, int32_t nc) {
    const tp_tables *T = TABLES(E);
    size_t n = (size_t)T->n, nd = (size_t)T->nd, words = (size_t)E->words;
    int keep = nc <= TM_MAXW && words <= TM_WORDS;
    for (int32_t s = 0; keep && s < E->tn_n; s++) { /* a slot this node used, by its turn's difference to this one */
        const TurnMemo *m = E->tm + E->tn_idx[s];
        if (E->tn_node[s] == E->cm_gen && m->ver == E->tn_ver[s] && m->p == p
            && memo_node_fits(E, B, m, E->tn_x[s], E->tn_nx[s], nc))
            return memo_turn_apply(E, B, m, nc);
    }
    uint64_t key = 0x9E3779B97F4A7C15ULL * (uint64_t)(p + 1);
    for (int32_t c = 0; c < nc; c++) {
        const uint64_t *z = E->zob + (size_t)E->tmp[3 * c] * nd;
        key ^= z[E->tmp[3 * c + 1]] ^ z[E->tmp[3 * c + 2]];
    }
    key |= 1; /* 0: an empty slot */
    /* the slot by the turn and the node's clean-up writes: nodes whose clean-ups differ (an en passant right
       lapsing on one file or another) keep a run each */
    TurnMemo *m = E->tm + ((key ^ E->cn_hash) >> 32) % TM_SIZE;
    uint64_t *mbits = E->tm_bits + (size_t)(m - E->tm) * TM_MAXK * words;
    if (keep && m->key == key && memo_turn_fits(E, B, m, mbits, p, nc)) {
        memo_node_keep(E, m, E->tmp, nc);
        return memo_turn_apply(E, B, m, nc);
    }
    int32_t mark = E->undo_top, turn[3 * TM_MAXW];
    if (E->undo_top + nc > E->undo_cap) return TP_ERR_CAP;
    if (keep) memcpy(turn, E->tmp, 3 * (size_t)nc * sizeof *turn);
    for (int32_t c = 0; c < nc; c++) put(E, B, E->tmp[3 * c], E->tmp[3 * c + 1]);
    uint32_t *tread = E->cm_tread, *cread = E->cm_cread, gen = E->cm_gen;
    int32_t len = E->cm_len;
    if (keep) { /* the run tracked as memo_cleanups tracks the node's, on stamps of its own */
        next_gen(&E->tm_gen, E->tm_tread, n);
        if (E->tm_gen == 1) memset(E->tm_cread, 0, nd * sizeof *E->tm_cread);
        E->cm_tread = E->tm_tread;
        E->cm_cread = E->tm_cread;
        E->cm_gen = E->tm_gen;
        E->cm_len = 0;
        E->tracking = TRACK_CLEANUPS;
    }
    int r = run_cleanups(E, B, p);
    int32_t nw = 0;
    if (keep) {
        E->tracking = TRACK_NONE;
        uint32_t g = next_gen(&E->tgen, E->tstamp, n); /* the codes the run left on the tiles it wrote, by tile */
        for (int32_t i = E->cm_len - 1; r == 0 && i >= 0 && nw <= TM_MAXW; i--) {
            int32_t u = E->cm_tile[i];
            if (E->tstamp[u] == g) continue;
            E->tstamp[u] = g;
            if (nw == TM_MAXW) {
                nw++;
                break;
            }
            int32_t *y = m->w + 2 * nw;
            int32_t k = nw++;
            for (; k > 0 && y[-2] > u; k--, y -= 2) memcpy(y, y - 2, 2 * sizeof *y);
            y[0] = u;
            y[1] = B->codes[u];
        }
        m->key = 0;
        m->ver++; /* its writes are being replaced: the nodes' references to it lapse */
        E->cm_tread = tread; /* the node's memo as it was */
        E->cm_cread = cread;
        E->cm_gen = gen;
        E->cm_len = len;
    }
    Walk W = {B, p, WALK_TURNS, E->path_top, mark, E->seq_top, -1, NULL, NULL, 0};
    int32_t out = r < 0 ? 0 : collect_changes(E, &W);
    restore(E, B, mark);
    if (keep && r == 0 && nw <= TM_MAXW) { /* what the run read, on the node's board */
        int32_t nt = 0, nk = 0;
        uint64_t tb = 0, cb = 0;
        uint32_t g = E->tm_gen;
        for (int32_t u = 0; u < (int32_t)n && nt <= TM_MAXT; u++)
            if (E->tm_tread[u] == g) {
                if (nt < TM_MAXT) {
                    m->tile[2 * nt] = u;
                    m->tile[2 * nt + 1] = B->codes[u];
                    tb |= 1ULL << (u & 63);
                }
                nt++;
            }
        for (int32_t c = 0; c < (int32_t)nd && nk <= TM_MAXK; c++)
            if (E->tm_cread[c] == g) {
                if (nk < TM_MAXK) {
                    m->code[2 * nk] = c;
                    m->code[2 * nk + 1] = B->count[c];
                    cb |= 1ULL << (c & 63);
                    memcpy(mbits + (size_t)nk * words, B->bits + (size_t)c * words, words * sizeof *mbits);
                }
                nk++;
            }
        if (nt <= TM_MAXT && nk <= TM_MAXK) {
            m->key = key;
            m->p = p;
            m->nt = nt;
            m->nk = nk;
            m->nw = nw;
            m->nx = nc;
            m->tb = tb;
            m->cb = cb;
            memcpy(m->x, turn, 3 * (size_t)nc * sizeof *turn);
            memo_node_keep(E, m, turn, nc);
        }
    }
    return r < 0 ? r : out;
}

/* True when no tile the chain changed was read by the node's clean-ups, nor holds (or held) a code they counted. */
static int memo_applies(tp_engine *E, const Walk *W) {
    const Board *B = W->b;
    if (!E->cm_ok) return 0;
    uint32_t g = next_gen(&E->tgen, E->tstamp, (size_t)TABLES(E)->n);
    for (int32_t j = W->undo_base; j < E->undo_top; j++) {
        int32_t u = E->undo_tile[j], old = E->undo_old[j];
        if (E->tstamp[u] == g) continue;
        E->tstamp[u] = g;
        if (B->codes[u] != old && cleanup_reads(E, u, old, B->codes[u])) return 0;
    }
    return 1;
}

/* The node's royal test, tracked (at_ok = 1 once at_base holds its answer).  With att_acc, at_acc per code v: the
   entry tiles of every row of a royal tile (each attacker's) whose entry accepts v (the row itself where it is one,
   else their union in at_rel).  Cost: the test, and where there are several rows nd * words words each. */
static int memo_attack(tp_engine *E, Board *B, int32_t p) {
    const tp_tables *T = TABLES(E);
    size_t words = (size_t)E->words, nd = (size_t)T->nd;
    next_gen(&E->at_gen, E->at_gstamp, (size_t)T->n);
    memset(E->at_rbits, 0, words * sizeof *E->at_rbits);
    E->tracking = TRACK_ATTACK;
    int r = attacked(E, B, E->node_royal, E->n_node_royal, p);
    E->tracking = TRACK_NONE;
    if (r < 0) return r;
    if (E->att_acc) { /* one row (one royal tile, one attacker): read in place, else their union */
        int32_t rows = (T->np - 1) * E->n_node_royal;
        if (rows != 1) memset(E->at_rel, 0, nd * words * sizeof *E->at_rel);
        E->at_acc = E->at_rel;
        for (int32_t q = 0; q < T->np; q++)
            for (int32_t i = 0; q != p && i < E->n_node_royal; i++) {
                const uint64_t *acc = E->att_acc + ((size_t)q * (size_t)T->n + (size_t)E->node_royal[i]) * nd * words;
                if (rows == 1) {
                    E->at_acc = acc;
                    continue;
                }
                for (size_t k = 0; k < nd * words; k++) E->at_rel[k] |= acc[k];
            }
    }
    E->at_base = r;
    E->at_ok = 1;
    return 0;
}

/* True when one of the chain's changes (E->tmp) may change the node's royal test: a tile it read, or a scanned
   entry tile now holding a code that enters there. */
static int attack_relevant(const tp_engine *E, int32_t nc) {
    for (int32_t c = 0; c < nc; c++)
        if (attack_reads(E, E->tmp[3 * c], E->tmp[3 * c + 1])) return 1;
    return 0;
}

/* play_paths' order of a complete chain into E->ord (its length): for each of its moves, a block move's placement
   (-1 - app_block_sig), then the tiles it writes (by tile) that the chain changes, each the first time only. */
static int32_t chain_order(tp_engine *E, const Walk *W) {
    const tp_tables *T = TABLES(E);
    int32_t nord = 0;
    if (T->steps) { /* a turn of steps: each sequence of steps is a way of its own (its applications) */
        for (int32_t i = W->seq_base; i < E->seq_top; i++) E->ord[nord++] = E->seq[i];
        return nord;
    }
    int32_t nc = collect_changes(E, W); /* E->tmp: the changed tiles, sorted */
    uint32_t g = next_gen(&E->cgen, E->cseen, (size_t)T->n);
    for (int32_t i = W->seq_base; i < E->seq_top; i++) {
        int32_t a = E->seq[i];
        if (T->app_block[a]) E->ord[nord++] = -1 - T->app_block_sig[a];
        for (int32_t k = T->wr_off[a]; k < T->wr_off[a + 1]; k++) {
            int32_t u = T->wr_tile[k], lo = 0, hi = nc;
            while (lo < hi) { /* is u among the changes? */
                int32_t mid = (lo + hi) / 2;
                if (E->tmp[3 * mid] < u) lo = mid + 1;
                else hi = mid;
            }
            if (lo < nc && E->tmp[3 * lo] == u && E->cseen[u] != g) {
                E->cseen[u] = g;
                E->ord[nord++] = u;
            }
        }
    }
    return nord;
}

/* One way (key k, the order in E->ord) of the node, kept once; its flag and its count of the maximum rule's moves are
   its first chain's. */
static int record_way(tp_engine *E, int32_t k, int32_t flagged, int32_t most, int32_t nord) {
    uint64_t h = 0xCBF29CE484222325ULL ^ (uint64_t)(uint32_t)k;
    for (int32_t i = 0; i < nord; i++) h = (h ^ (uint64_t)(uint32_t)E->ord[i]) * 0x100000001B3ULL;
    uint32_t mask = (uint32_t)E->ht_size - 1;
    for (uint32_t i = (uint32_t)(h ^ (h >> 32)) & mask;; i = (i + 1) & mask) {
        if (E->way_ht_gen[i] != E->way_gen) {
            if (E->nways >= E->key_cap || E->nwseq + nord > E->chg_cap || 2 * (E->nways + 1) > E->ht_size)
                return TP_ERR_CAP;
            int32_t w = E->nways++;
            E->way_key[w] = k;
            E->way_off[w] = E->nwseq;
            E->way_len[w] = nord;
            E->way_flag[w] = (uint8_t)flagged;
            E->way_most[w] = most;
            E->way_hash[w] = h;
            memcpy(E->way_seq + E->nwseq, E->ord, (size_t)nord * sizeof *E->ord);
            E->nwseq += nord;
            E->way_ht_gen[i] = E->way_gen;
            E->way_ht[i] = w;
            return 0;
        }
        int32_t w = E->way_ht[i];
        if (E->way_hash[w] == h && E->way_key[w] == k && E->way_len[w] == nord
            && !memcmp(E->way_seq + E->way_off[w], E->ord, (size_t)nord * sizeof *E->ord))
            return 0;
    }
}

/* chains.path_order: 1 when the walk's label path ranks before the one of the record `o` (fewer pairs, then its
   tiles, then its separators, each in order). */
static int label_less(const tp_engine *E, const int32_t *o) {
    const int32_t *p = o + 1 + o[0];
    int32_t n = p[0];
    if (E->lp_len != n) return E->lp_len < n;
    for (int32_t i = 0; i < n; i++)
        if (E->lp_tile[i] != p[2 + 2 * i]) return E->lp_tile[i] < p[2 + 2 * i];
    for (int32_t i = 0; i < n; i++)
        if (E->lp_sep[i] != p[1 + 2 * i]) return E->lp_sep[i] < p[1 + 2 * i];
    return 0;
}

/* Chains.finish: the turn's clean-ups, its key, the royal rule (a chain whose last move may not end it is none). */
static int finish(tp_engine *E, Walk *W, int32_t end, int32_t flagged) {
    const tp_tables *T = TABLES(E);
    Board *B = W->b;
    int32_t p = W->player, mark = E->undo_top;
    int r = 0;
    if (!T->app_final[E->seq[E->seq_top - 1]]) return 0;
    int32_t nord = E->ways_mode ? chain_order(E, W) : 0;
    if (pair_kept(E, W)) { /* a bulk count by (start, end): counted without the clean-ups */
        pair_count(E, W->start, end);
        return 0;
    }
    if (E->raw) raw_sync(E, B, W->undo_base, mark, 1); /* the clean-ups and what follows read a level board */
    if (T->grp_off[p + 1] > T->grp_off[p]) {
        if (memo_applies(E, W)) {
            if (E->undo_top + E->cm_len > E->undo_cap) {
                r = TP_ERR_CAP;
                goto out;
            }
            for (int32_t i = 0; i < E->cm_len; i++) put(E, B, E->cm_tile[i], E->cm_code[i]);
        } else {
            r = run_cleanups(E, B, p);
            if (r < 0) goto out;
        }
    }
    if (E->cnt_on) { /* a bulk count's last ply: the turn counted by the hash of its position (no change: none) */
        int32_t resets = 0; /* read by the witnesses and the picked turn's key only */
        for (int32_t i = W->seq_base; T->nctr && (E->cnt_dup || E->cnt_find >= 0) && i < E->seq_top; i++)
            resets |= T->app_reset[E->seq[i]];
        if (B->hash != E->path_hash[W->path_base] || !same_as_at(E, B, W->undo_base)) r = count_chain(E, W, end, resets);
        if (r > 0) r = 0; /* counted: a perft that makes its leaves has it written (the chain wrote it) */
        goto out;
    }
    int32_t nc = collect_changes(E, W);
    if (nc == 0) goto out;
    int32_t kstart = W->start;
    if (T->keyed_by_changes) kstart = end = E->tmp[0]; /* the changes are sorted by tile */
    int32_t k = find_key(E, E->se_now ? 0 : key_hash(E, kstart, end, nc), kstart, end, nc);
    if (k < 0) {
        r = k;
        goto out;
    }
    Key *K = &E->keys[k];
    if (K->pos_ok == 2) {
        K->pos_ok = 1;
        int fast = T->has_royal ? royal_as_node(E, p, nc) : -1;
        if (fast >= 0) {
            K->pos_ok = (uint8_t)fast;
        } else if (T->has_royal) {
            /* the mover's royal tiles now: those of the node still royal, and the tiles that became royal */
            int32_t nm = 0;
            const uint8_t *mine = T->royal_mine + (size_t)p * (size_t)T->nd;
            for (int32_t i = 0; i < E->n_node_royal; i++)
                if (mine[B->codes[E->node_royal[i]]]) E->mine[nm++] = E->node_royal[i];
            int same = nm == E->n_node_royal; /* the same royal tiles as at the node: its test may answer */
            for (int32_t c = 0; c < nc; c++)
                if (mine[E->tmp[3 * c + 1]] && !mine[E->tmp[3 * c + 2]]) {
                    E->mine[nm++] = E->tmp[3 * c];
                    same = 0;
                }
            if (nm) {
                if (same && E->at_ok && !attack_relevant(E, nc))
                    r = E->at_base;
                else
                    r = attacked(E, B, E->mine, nm, p);
                if (r < 0) goto out;
                K->pos_ok = (uint8_t)!r;
                r = 0;
            }
        }
    }
    if (!K->pos_ok) goto out;
    int32_t resets = 0; /* the counters the classes of the chain's moves reset */
    for (int32_t i = W->seq_base; T->nctr && i < E->seq_top; i++) resets |= T->app_reset[E->seq[i]];
    int32_t most = chain_most(E, W);
    if (K->accepted && !E->chains_mode && !E->ways_mode && (K->flagged || !flagged) && (K->reset_or | resets) == K->reset_or
        && (K->reset_and & resets) == K->reset_and && most >= K->most_lo && most <= K->most_hi)
        goto out; /* nothing new to learn */
    if (T->has_royal) {
        r = safe_ok(E, W);
        if (r <= 0) goto out;
        r = 0;
    }
    if (E->chains_mode && !K->accepted) E->acc_order[E->nacc++] = k;
    accept_resets(K, resets);
    accept_most(K, most);
    K->accepted = 1;
    K->flagged |= (uint8_t)flagged;
    if (E->ways_mode) {
        r = record_way(E, k, flagged, most, nord);
        if (r < 0) goto out;
    }
    if (E->chains_mode && (K->best < 0 || label_less(E, E->chains + K->best))) { /* as Chains.finish: the least */
        int32_t len = E->seq_top - W->seq_base;
        if (E->chains_len + 2 + len + 2 * E->lp_len > E->chains_cap) {
            r = TP_ERR_CAP;
            goto out;
        }
        int32_t *o = E->chains + E->chains_len;
        K->best = E->chains_len;
        *o++ = len;
        memcpy(o, E->seq + W->seq_base, (size_t)len * sizeof *o);
        o += len;
        *o++ = E->lp_len;
        for (int32_t i = 0; i < E->lp_len; i++) {
            *o++ = E->lp_sep[i];
            *o++ = E->lp_tile[i];
        }
        E->chains_len += 2 + len + 2 * E->lp_len;
    }
out:
    restore(E, B, mark);
    if (E->raw) raw_sync(E, B, W->undo_base, mark, -1);
    return r;
}

#ifdef TP_GEN_ENTRIES
/* The entry moves of entry row (player * n + tile) * nd + code that fit, each walked by step (generated). */
static int TP_GEN_ENTRIES(tp_engine *E, Walk *W, int32_t row);
#endif

/* RuleSet.phase_at: the index of the phase the turn at `ply` belongs to, or -1 for the regular play. */
static int32_t phase_at(const tp_tables *T, int32_t ply) {
    for (int32_t i = 0, start = 0; i < T->nphases; start += T->phase_plies[i++])
        if (ply >= start && ply - start < T->phase_plies[i]) return i;
    return -1;
}

/* RuleSet.next_player: who plays the turn after p's turn at `ply`. */
static int32_t next_player(const tp_tables *T, int32_t p, int32_t ply) {
    if (!T->nphases) return (p + 1) % T->np;
    int32_t nxt = ply + 1, start = 0;
    for (int32_t i = 0; i < T->nphases; start += T->phase_plies[i++])
        if (nxt >= start && nxt - start < T->phase_plies[i]) {
            int32_t o0 = T->phase_order_off[i], len = T->phase_order_off[i + 1] - o0;
            return T->phase_order[o0 + (nxt - start) % len];
        }
    return nxt == start ? T->first_player : (p + 1) % T->np;
}

static int32_t node_turns_in(tp_engine *E, Board *B, int32_t p, int32_t phase);
static void shut_near(tp_engine *E, const Board *B, int32_t set);
static void shut_steps_near(tp_engine *E, const Board *B, int32_t set, int scan);

/* The tiles holding a royal piece of p into out, in tile order (read from the tile sets of p's royal codes); their
   number.  Cost: a word per 64 tiles and royal code, a step per royal tile. */
static int32_t royal_tiles(const tp_engine *E, const Board *B, int32_t p, int32_t *out) {
    size_t words = (size_t)E->words;
    int32_t nm = 0;
    for (size_t w = 0; w < words; w++) {
        uint64_t m = 0;
        for (int32_t k = E->roy_off[p]; k < E->roy_off[p + 1]; k++) m |= B->bits[(size_t)E->roy_codes[k] * words + w];
        for (; m; m &= m - 1) out[nm++] = (int32_t)(w * 64 + (size_t)__builtin_ctzll(m));
    }
    return nm;
}

/* node_turns_in in the regular play. */
static inline int32_t node_turns(tp_engine *E, Board *B, int32_t p) {
    return node_turns_in(E, B, p, -1);
}

#ifndef TP_GEN_ENTRIES
/* A perft's inner node's turn of a carried piece (hop_keys): start s's code `piece` moved to e, which held `empty`,
   keyed as finish keys its chains (pair_ready: no royal test, counters or maximum; the key accepted).  0, or < 0 an
   error. */
static int hop_key_made(tp_engine *E, int32_t s, int32_t e, int32_t piece, int32_t empty) {
    int32_t lo = s < e ? s : e, hi = s ^ e ^ lo;
    E->tmp[0] = lo;
    E->tmp[1] = lo == s ? empty : piece;
    E->tmp[2] = lo == s ? piece : empty;
    E->tmp[3] = hi;
    E->tmp[4] = hi == s ? empty : piece;
    E->tmp[5] = hi == s ? piece : empty;
    int32_t k = find_key(E, E->se_now ? 0 : key_hash(E, s, e, 2), s, e, 2);
    if (k < 0) return k;
    Key *K = &E->keys[k];
    K->pos_ok = 1;
    accept_resets(K, 0);
    accept_most(K, 0);
    K->accepted = 1;
    return 0;
}

/* A packed record's checks, (tile, mask offset) pairs from c to c1 (hop_pack, the entry scan's es): each accepts the
   code its tile holds, as pattern_fits reads them. */
static inline int packed_fits(const uint8_t *masks, const int32_t *codes, const int32_t *c, const int32_t *c1) {
    while (c < c1 && masks[(size_t)c[1] + (size_t)codes[c[0]]]) c += 2;
    return c == c1;
}

/* A count's chains from entry a (which fits; a perft's, or a playout's before its pick) where pair_hops_hold proved
   them a piece carried from tile to tile and the node's turns need no clean-ups (hop_fast): each tile the piece may
   end on counted once by (start, end), found by a walk over tiles (not chains), each tile's follow-ups read once
   (hop_stamp) on the node's codes with the start emptied and the piece on that tile: the board every chain to it
   leaves.  The codes are written raw and taken back (nothing else reads the board meanwhile; in a count that makes
   its leaves, that write is the leaf made, as paired_leaf makes one).  At a perft's inner node (hop_keys) each end
   keyed by hop_key_made instead.  0, or < 0 an error (a key's).  O(tiles reached * follow-ups). */
static int hop_flood(tp_engine *E, const Walk *W, int32_t a) {
    const tp_tables *T = TABLES(E);
    int32_t *codes = W->b->codes, s = T->app_tile[a], piece = codes[s], top = 0;
    const uint8_t *masks = T->masks;
    size_t row = (size_t)s * (size_t)T->n;
    uint32_t g = E->hop_gen, *hs = E->hop_stamp;
    int keys = E->hop_keys, r = 0;
    if (hs[row + (size_t)T->app_to[a]] == g) return 0;
    hs[row + (size_t)s] = g; /* a chain never comes back to its start (pair_hops_hold) */
    hs[row + (size_t)T->app_to[a]] = g;
    int32_t empty = codes[T->app_to[a]];
    if (keys) r = hop_key_made(E, s, T->app_to[a], piece, empty);
    else pair_count(E, s, T->app_to[a]);
    E->hop_stk[top++] = a;
    codes[s] = empty;
    while (top) {
        int32_t b = E->hop_stk[--top], t = T->app_to[b];
        codes[t] = piece;
        __asm__ __volatile__("" ::: "memory");
        const int32_t *f = E->hop_fu + E->hop_fu_off[T->tgt_off[T->lnk_off[b]]];
        const int32_t *f1 = E->hop_fu + E->hop_fu_off[T->tgt_off[T->lnk_off[b + 1]]];
        while (f < f1) { /* b's follow-ups (hop_fu): pattern_fits over each one's packed checks */
            int32_t y = f[0], u = f[1];
            const int32_t *c = f + 3, *c1 = c + f[2];
            f = c1;
            if (hs[row + (size_t)u] == g) continue;
            if (!packed_fits(masks, codes, c, c1)) continue;
            hs[row + (size_t)u] = g;
            if (!keys) pair_count(E, s, u);
            else if (r >= 0) r = hop_key_made(E, s, u, piece, empty);
            E->hop_stk[top++] = y;
        }
        codes[t] = empty;
    }
    codes[s] = piece;
    return r;
}

/* hop_flood's walk in the chain walk's order (step): from follow-up b (its `to` tile t stamped, the start emptied),
   the piece put on t, each follow-up of b in link order whose `to` tile is not stamped (neither on the chain nor
   walked: revisits and pair_seen refuse those) and that fits walked first, then (start, t) counted, as finish counts
   a chain after its follow-ups.  The codes written raw and taken back.  Depth: the tiles of one chain. */
static void hop_post(tp_engine *E, int32_t *codes, int32_t s, int32_t b, int32_t piece, int32_t empty) {
    const tp_tables *T = TABLES(E);
    size_t row = (size_t)s * (size_t)T->n;
    uint32_t g = E->hop_gen, *hs = E->hop_stamp;
    int32_t t = T->app_to[b];
    const uint8_t *masks = T->masks;
    const int32_t *f = E->hop_fu + E->hop_fu_off[T->tgt_off[T->lnk_off[b]]];
    const int32_t *f1 = E->hop_fu + E->hop_fu_off[T->tgt_off[T->lnk_off[b + 1]]];
    codes[t] = piece;
    while (f < f1) { /* b's follow-ups (hop_fu): pattern_fits over each one's packed checks */
        int32_t y = f[0], u = f[1];
        const int32_t *c = f + 3, *c1 = c + f[2];
        f = c1;
        if (hs[row + (size_t)u] == g) continue;
        if (!packed_fits(masks, codes, c, c1)) continue;
        hs[row + (size_t)u] = g;
        codes[t] = empty;
        hop_post(E, codes, s, y, piece, empty);
        codes[t] = piece;
    }
    codes[t] = empty;
    pair_count(E, s, t);
}

/* The picked turn of rank `pick` of a playout's node whose turns were all counted by (start, end) from carried pieces
   (hop_post, hop_step): its key made straight from pair_ord, the start's code moved to the end and the start given
   the end's (`empty`), as count_chain makes it from the chain's changes (pair_ready: no counters, keys by start and
   end).  1 (E->cnt_key), or TP_ERR_CAP. */
static int hop_key(tp_engine *E, const Board *B, int32_t pick) {
    int32_t n = TABLES(E)->n, i = E->pair_ord[pick], s = i / n, e = i % n, lo = s < e ? s : e, hi = s ^ e ^ lo;
    E->tmp[0] = lo;
    E->tmp[1] = B->codes[hi];
    E->tmp[2] = B->codes[lo];
    E->tmp[3] = hi;
    E->tmp[4] = B->codes[lo];
    E->tmp[5] = B->codes[hi];
    int r = found_key(E, s, e, 2, 0);
    return r == TP_ERR_FOUND ? 1 : r;
}

/* An entry a without links of a count where hop_fast holds (pair_hops_hold proved it carries its own tile's piece to
   its `to` tile, which holds `empty`): its turn (start, to) counted by pair_count, as step_leaf's pair_leaf counts it,
   without its writes' new values or a hash; in a count that makes its leaves, written raw and taken back as hop_flood
   makes its leaves.  0 (not counted: step_leaf's case) where the piece is the `empty` code, a move changing nothing. */
static inline int hop_step(tp_engine *E, const Walk *W, int32_t a) {
    const tp_tables *T = TABLES(E);
    int32_t *codes = W->b->codes, s = T->app_tile[a], to = T->app_to[a], piece = codes[s], empty = codes[to];
    if (piece == empty) return 0;
    if (pair_count(E, s, to) == 1 && E->make_leaves) {
        codes[s] = empty;
        codes[to] = piece;
        __asm__ __volatile__("" ::: "memory");
        codes[to] = empty;
        codes[s] = piece;
    }
    return 1;
}

/* An entry a of the node that fits, walked as the node's scan walks it (its turns counted, or keyed): < 0 an error,
   else 0. */
static int walk_entry(tp_engine *E, Walk *W, int32_t a) {
    const tp_tables *T = TABLES(E);
    Board *B = W->b;
    int32_t t = T->app_tile[a];
    int r;
    W->start = t;
    if (E->hop_keys && B->codes[t] != B->codes[T->app_to[a]]) { /* an inner node's carried piece: keyed */
        if (T->lnk_off[a + 1] > T->lnk_off[a]) return hop_flood(E, W, a);
        return hop_key_made(E, t, T->app_to[a], B->codes[t], B->codes[T->app_to[a]]);
    }
    if (E->hop_fast && T->lnk_off[a + 1] > T->lnk_off[a]) { /* a perft's count of carried pieces */
        if (!E->hop_order) {
            hop_flood(E, W, a);
            return 0;
        }
        int32_t *codes = B->codes, piece = codes[t], empty = codes[T->app_to[a]];
        size_t row = (size_t)t * (size_t)T->n;
        if (E->hop_stamp[row + (size_t)T->app_to[a]] == E->hop_gen) return 0;
        E->hop_stamp[row + (size_t)t] = E->hop_stamp[row + (size_t)T->app_to[a]] = E->hop_gen;
        codes[t] = empty;
        hop_post(E, codes, t, a, piece, empty);
        codes[t] = piece;
        return 0;
    }
    if (E->hop_fast && hop_step(E, W, a)) return 0; /* a carried piece's single step */
    if (E->plain_on && E->solo[a] == SOLO_PLAIN) { /* a plain solo: one change, its own turn */
        if (E->make_leaves) { /* made and taken back */
            int32_t mark = E->undo_top;
            if (E->undo_top + 1 > E->undo_cap) return TP_ERR_CAP;
            put(E, B, t, T->maps[(size_t)T->wr_map[T->wr_off[a]] * (size_t)T->nd + (size_t)B->codes[t]]);
            restore(E, B, mark);
        }
        E->solo_legal++;
        return 0;
    }
    if (E->solo_on && E->leaf[a] && E->solo[a] & (SOLO_LEAF | SOLO_PLAIN)) { /* step's own first case (solo: no
                                                                                 slide) */
        r = step_leaf(E, W, a);
        if (r < 0) return r;
        if (r != FAST_NO) return 0;
    }
    r = FAST_NO; /* a single cell counted alone: step's own first case, without its tests (any count by hash: a bulk
                    count, a made one, a playout's); so too a shut step away from the node's lines (sstep_away) */
    if (E->cnt_on && !E->tracking && (E->solo[a] == SOLO_ALONE || sstep_away(E, W, a))) r = step_cond_leaf(E, W, a);
    if (r == FAST_NO) {
        E->raw = E->raw_ok && E->pair_on && E->cnt_on && !E->make_leaves && !E->tracking && W->mode == WALK_TURNS
                 && !E->chains_mode && !E->ways_mode; /* a count's chain on the codes alone (raw_ready) */
        r = step(E, W, a, W->start, 0);
        E->raw = 0;
    }
    if (r < 0) return r;
    if (E->cnt_on) { /* where a playout's pick_turn finds the picked turn again */
        E->cnt_ent[E->cnt_nent] = a;
        E->cnt_upto[E->cnt_nent++] = E->cnt_n;
    }
    return 0;
}

/* The node's entries of entry set `set` found from their trigger tiles (pair_triggers) rather than row by row: for each
   tile u and the code c it holds, the entries whose trigger is (u, c) whose row's tile holds the row's code and whose
   checks hold, each walked (walk_entry).  The turns come in another order than the row scan's: a count only. */
static int pair_scan(tp_engine *E, Walk *W, int32_t set) {
    const tp_tables *T = TABLES(E);
    const Board *B = W->b;
    size_t n = (size_t)T->n, nd = (size_t)T->nd, words = (size_t)E->words;
    const uint8_t *masks = T->masks;
    const int32_t *codes = B->codes;
    for (int32_t k = E->trig_code_off[set]; k < E->trig_code_off[set + 1]; k++) {
        size_t c = (size_t)E->trig_codes[k];
        for (size_t w = 0; w < words; w++)
            for (uint64_t m = B->bits[c * words + w]; m; m &= m - 1) {
                size_t u = w * 64 + (size_t)__builtin_ctzll(m), row = ((size_t)set * n + u) * nd + c;
                for (int32_t j = E->trig_off[row]; j < E->trig_off[row + 1]; j++) {
                    int32_t i = E->trig_ent[j], a = E->es[E->es_off[i]];
                    if (codes[E->trig_at[j]] != E->trig_code[j] || pair_seen(E, T->app_tile[a], a)) continue;
                    const int32_t *sp = E->es + E->es_off[i], *c0 = sp + 3, *c1 = c0 + sp[1];
                    while (c0 < c1 && masks[(size_t)c0[1] + (size_t)codes[c0[0]]]) c0 += 2;
                    if (c0 < c1 || (sp[2] && (!fits_tail(E, codes, a) || !app_conds_hold(E, B, a)))) continue;
                    int r = walk_entry(E, W, a);
                    if (r < 0) return r;
                }
            }
    }
    return 0;
}

/* A playout's node counted by triggers (pair_scan, pair_any), its turn of rank `pick` in the row scan's order to be
   found (pick_turn): the row scan meets the turns by start tile, in tile order, so the picked turn's start is the tile
   where the node's turns by start tile (pair_ord) add up past `pick`; that tile's row alone is walked again, the
   counts before it carried, so that cnt_ent, cnt_upto and pair_ord hold what the row scan would have left for it.
   Where hop_fast_for holds, the row's chains are walked by hop_post (their order) and the picked turn's key made
   from pair_ord (hop_key): 1.  < 0 an error, else 0 (pick_turn finds the key). */
static int pair_locate(tp_engine *E, Board *B, int32_t p, int32_t phase, int32_t pick) {
    const tp_tables *T = TABLES(E);
    int32_t n = T->n, set = (phase + 1) * T->np + p, before = 0, s = 0;
    memset(E->pair_tcnt, 0, (size_t)n * sizeof(int32_t));
    for (int32_t i = 0; i < E->cnt_n; i++) E->pair_tcnt[E->pair_ord[i] / n]++;
    while (s < n && before + E->pair_tcnt[s] <= pick) before += E->pair_tcnt[s++];
    if (s == n) return TP_ERR_ARG;
    Walk W = {B, p, WALK_TURNS, E->path_top, E->undo_top, E->seq_top, -1, NULL, NULL, 0};
    int r = push_level(E, B), hop = hop_fast_for(E, p); /* carried pieces: walked by hop_post, in the chains' order */
    if (r < 0) return r;
    const int32_t *e = T->ent_off + ((size_t)set * (size_t)n + (size_t)s) * (size_t)T->nd + (size_t)B->codes[s];
again:
    pair_fresh(E);
    E->cnt_n = before;
    E->cnt_nent = 0;
    E->cnt_on = 1;
    E->hop_fast = E->hop_order = hop;
    const int32_t *sp = E->es + E->es_off[e[0]], *se = E->es + E->es_off[e[1]];
    while (sp < se && r >= 0) { /* the row's entries, as the row scan reads them */
        int32_t a = sp[0], slow = sp[2];
        const int32_t *c = sp + 3, *c1 = c + sp[1];
        sp = c1;
        if (pair_seen(E, T->app_tile[a], a)) continue;
        while (c < c1 && T->masks[(size_t)c[1] + (size_t)B->codes[c[0]]]) c += 2;
        if (c < c1 || (slow && (!fits_tail(E, B->codes, a) || !app_conds_hold(E, B, a)))) continue;
        r = walk_entry(E, &W, a);
    }
    E->hop_fast = E->hop_order = 0;
    if (r >= 0 && hop && E->cnt_nent) { /* an entry walked as chains (pick_turn reads cnt_ent): every one so */
        hop = 0;
        goto again;
    }
    E->cnt_on = 0;
    E->path_top--;
    if (r >= 0 && hop) return pick < E->cnt_n ? hop_key(E, B, pick) : TP_ERR_ARG; /* the key, pick_turn not needed */
    return r < 0 ? r : 0;
}
#endif

/* A perft's inner node's turn of the one change tile t := code v (its chain's classes reset `resets`), keyed as
   finish keys it, the key accepted: its index, < 0 an error. */
static inline int32_t key_one_change(tp_engine *E, const Board *B, int32_t t, int32_t v, int32_t resets) {
    E->tmp[0] = t;
    E->tmp[1] = v;
    E->tmp[2] = B->codes[t];
    int32_t key = find_key(E, E->se_now ? 0 : key_hash(E, t, t, 1), t, t, 1);
    if (key < 0) return key;
    Key *K = &E->keys[key];
    K->pos_ok = 1;
    accept_resets(K, resets);
    accept_most(K, 0);
    K->accepted = 1;
    return key;
}

/* Chains.turns and the mandatory-class rule for the player to move, in the phase of index `phase` (-1: the regular
   play): keys appended at E->nkeys; returns how many are legal. */
static int32_t node_turns_in(tp_engine *E, Board *B, int32_t p, int32_t phase) {
    const tp_tables *T = TABLES(E);
    int32_t set = (phase + 1) * T->np + p; /* the entry set's rows of p */
    if (E->ways_mode) {
        next_gen(&E->way_gen, E->way_ht_gen, (size_t)E->ht_size);
        E->nways = E->nwseq = 0;
    }
    int32_t k0 = E->nkeys;
    E->se_now = E->se_head && !E->se_long; /* the node's keys by start and end, or by hash (find_key) */
    if (E->se_now)
        next_gen(&E->segen, E->se_gen, (size_t)T->n * (size_t)T->n);
    else
        next_gen(&E->gen, E->ht_gen, (size_t)E->ht_size);
    E->node_keys = 0;
    E->solo_legal = 0;
    if (E->ac_stamp) apart_fresh(E);
    E->cnt_n = 0;
    E->cnt_nwit = 0;
    E->cnt_nent = 0;
    if (E->cnt_on) next_gen(&E->cnt_gen, E->cnt_stamp, (size_t)E->ht_size);
    E->n_node_royal = 0;
    if (T->has_royal) E->n_node_royal = royal_tiles(E, B, p, E->node_royal);
    int r = T->grp_off[p + 1] > T->grp_off[p] ? memo_cleanups(E, B, p) : 0;
    if (r < 0) return r;
    E->at_ok = 0;
    if (T->has_royal && E->n_node_royal) {
        r = memo_attack(E, B, p);
        if (r < 0) return r;
    }
    Walk W = {B, p, WALK_TURNS, E->path_top, E->undo_top, E->seq_top, -1, NULL, NULL, 0};
    r = push_level(E, B);
    if (r < 0) return r;
    const int32_t *row = T->ent_off + (size_t)set * (size_t)T->n * (size_t)T->nd;
#ifdef TP_GEN_ENTRIES
    (void)row;
#endif
    size_t words = (size_t)E->words;
    /* the codes and tiles the scan reads: every entry's, or where the quiet moves run apart, only those of rows with
       another entry move (generated: TP_GEN_OTHER_CODES, the quiet rows' walk is nothing then) */
    const int32_t *ek = E->ent_codes + E->ent_code_off[set], *ek1 = E->ent_codes + E->ent_code_off[set + 1];
    const uint64_t *etiles = E->ent_tiles + (size_t)set * words;
#ifdef TP_GEN_OTHER_CODES
    if (E->quiet_apart) {
        ek = TP_GEN_OTHER_CODES + TP_GEN_OTHER_CODE_OFF[set];
        ek1 = TP_GEN_OTHER_CODES + TP_GEN_OTHER_CODE_OFF[set + 1];
        etiles = TP_GEN_OTHER_TILES + (size_t)set * words;
    }
#endif
    if (E->plain_on && E->plain_set && E->plain_set[set]) { /* every entry a plain solo: the count of those that fit
                                                               (solo_plain's classes), made where a count makes them */
        for (int32_t k = E->plain_off[set]; k < E->plain_off[set + 1]; k++) {
            int32_t a = E->plain_app[k];
            if (!app_conds_hold(E, B, a)) continue;
            const uint64_t *pm = E->plain_mask + (size_t)k * words, *bits = B->bits + (size_t)E->plain_code[k] * words;
            for (size_t w = 0; w < words; w++) {
                uint64_t x = bits[w] & pm[w];
                E->solo_legal += __builtin_popcountll(x);
                if (E->make_leaves) /* each leaf's one write made on the codes and taken back, as paired_leaf */
                    for (; x; x &= x - 1) paired_leaf(B, (int32_t)(w * 64 + (size_t)__builtin_ctzll(x)), E->plain_new[k]);
            }
        }
        words = 0; /* no scan */
    }
    if (words && E->plain_keys && E->plain_set && E->plain_set[set] && !E->cnt_on && !E->tracking && !E->pair_on
        && !T->nctr) {
        /* a perft's inner node whose every entry is a plain solo: each its own turn of one change, keyed as finish
           keys it, by classes (alike in code, write and conditions, not in resets: no counters) */
        for (int32_t k = E->plain_off[set]; k < E->plain_off[set + 1]; k++) {
            int32_t a = E->plain_app[k];
            if (!app_conds_hold(E, B, a)) continue;
            const uint64_t *pm = E->plain_mask + (size_t)k * words, *bits = B->bits + (size_t)E->plain_code[k] * words;
            for (size_t w = 0; w < words; w++)
                for (uint64_t x = bits[w] & pm[w]; x; x &= x - 1) {
                    int32_t key = key_one_change(E, B, (int32_t)(w * 64 + (size_t)__builtin_ctzll(x)), E->plain_new[k],
                                                 T->app_reset[a]);
                    if (key < 0) {
                        E->path_top--;
                        return key;
                    }
                }
        }
        words = 0; /* no scan */
    }
    const uint64_t *near = NULL; /* shut cells (shut_cells) counted, or made and taken back, away from these tiles */
    const uint64_t *alone = NULL; /* a playout's: shut cells away from these tiles numbered without a hash */
#ifndef TP_GEN_ENTRIES
    if (words && E->shut_set && E->shut_set[set] && !E->plain_on && E->cnt_on && E->cnt_find < 0 && !E->tracking
        && !E->pair_on && !E->chains_mode && !E->ways_mode) {
        shut_near(E, B, set);
        alone = E->shut_tiles;
    }
    if (words && E->shut_set && E->shut_set[set] && E->shut_keys && !E->cnt_on && !E->tracking && !E->pair_on
        && !E->ways_mode && !E->chains_mode && !T->has_royal && !T->has_mandatory && !T->has_maximum) {
        /* a perft's inner node: each its own turn of one change (no other chain's), keyed as finish keys it */
        shut_near(E, B, set);
        near = E->shut_tiles;
        for (int32_t k = E->shut_off[set]; k < E->shut_off[set + 1]; k++) {
            int32_t a = E->shut_app[k];
            if (!app_conds_hold(E, B, a)) continue;
            const uint64_t *sm = E->shut_mask + (size_t)k * words, *bits = B->bits + (size_t)E->shut_code[k] * words;
            for (size_t w = 0; w < words; w++)
                for (uint64_t x = bits[w] & sm[w] & ~near[w]; x; x &= x - 1) {
                    int32_t key = key_one_change(E, B, (int32_t)(w * 64 + (size_t)__builtin_ctzll(x)), E->shut_new[k],
                                                 T->nctr ? T->app_reset[a] : 0);
                    if (key < 0) {
                        E->path_top--;
                        return key;
                    }
                }
        }
    }
    if (words && E->shut_set && E->shut_set[set] && E->plain_on && E->cnt_on && !E->tracking && !E->pair_on) {
        shut_near(E, B, set);
        near = E->shut_tiles;
        for (int32_t k = E->shut_off[set]; k < E->shut_off[set + 1]; k++) {
            int32_t a = E->shut_app[k];
            if (!app_conds_hold(E, B, a)) continue;
            const uint64_t *sm = E->shut_mask + (size_t)k * words, *bits = B->bits + (size_t)E->shut_code[k] * words;
            for (size_t w = 0; w < words; w++) {
                uint64_t x = bits[w] & sm[w] & ~near[w];
                if (!E->make_leaves) {
                    E->solo_legal += __builtin_popcountll(x);
                    continue;
                }
                for (; x; x &= x - 1) { /* each written on the codes and taken back, as paired_leaf makes a leaf */
                    paired_leaf(B, (int32_t)(w * 64 + (size_t)__builtin_ctzll(x)), E->shut_new[k]);
                    E->solo_legal++;
                }
            }
        }
    }
#endif
#ifndef TP_GEN_ENTRIES
    if (words && E->pair_any && E->pair_on) { /* a perft's count by (start, end): the entries found from triggers */
        r = pair_scan(E, &W, set);
        if (r < 0) {
            E->path_top--;
            return r;
        }
        words = 0;
    }
#endif
    shut_steps_near(E, B, set, words > 0); /* where shut steps are counted unwritten (step_cond_leaf) */
#ifndef TP_GEN_ENTRIES
    EntryMemo memo = {0, {0}, {0}}; /* the entries' whole-board counts, read once (entry_conds_hold) */
#endif
    for (size_t w = 0; w < words; w++) {
        uint64_t m = 0; /* the tiles of this word holding a code some entry of p starts from, in tile order */
        for (const int32_t *k = ek; k < ek1; k++) m |= B->bits[(size_t)*k * words + w];
        m &= etiles[w];
        if (near) m &= near[w]; /* the shut cells' tiles where a link may open: walked */
#ifdef TP_GEN_OTHER_MASK
        if (E->quiet_apart) m &= TP_GEN_OTHER_MASK(B->bits, set); /* the tiles some such move fits at (one word) */
#endif
        for (; m; m &= m - 1) {
            int32_t t = (int32_t)(w * 64 + (size_t)__builtin_ctzll(m));
#ifdef TP_GEN_ENTRIES
            r = TP_GEN_ENTRIES(E, &W, (set * T->n + t) * T->nd + B->codes[t]);
            if (r < 0) {
                E->path_top--;
                return r;
            }
#else
            const int32_t *e = row + (size_t)t * (size_t)T->nd + (size_t)B->codes[t];
            const int32_t *sp = E->es + E->es_off[e[0]], *se = E->es + E->es_off[e[1]];
            const uint8_t *masks = T->masks;
            const int32_t *codes = B->codes;
            while (sp < se) { /* the row's entries, each as fits and app_conds_hold read it */
                int32_t a = sp[0], slow = sp[2];
                const int32_t *c = sp + 3, *c1 = c + sp[1];
                sp = c1;
                if (!packed_fits(masks, codes, c, c1) /* most fail here: read first */
                    || pair_seen(E, T->app_tile[a], a))
                    continue;
                if (slow && (!fits_tail(E, codes, a) || !entry_conds_hold(E, B, a, &memo))) continue;
                if (alone && !(alone[w] >> (t & 63) & 1)) { /* its own turn: numbered in the scan's order, its rank
                                                              marked for pick_turn, no hash */
                    if (2 * (E->cnt_n + 1) > E->ht_size) {
                        E->path_top--;
                        return TP_ERR_CAP;
                    }
                    E->cnt_order[E->cnt_n++] = SHUT_RANK;
                    E->cnt_ent[E->cnt_nent] = a;
                    E->cnt_upto[E->cnt_nent++] = E->cnt_n;
                    continue;
                }
                if (E->hop_fast && T->lnk_off[a + 1] == T->lnk_off[a] && hop_step(E, &W, a)) continue; /* walk_entry's
                                                                                                   step, not called */
                r = walk_entry(E, &W, a);
                if (r < 0) {
                    E->path_top--;
                    return r;
                }
            }
#endif
        }
    }
    E->sstep_node = 0;
    E->path_top--;
    if (E->ways_mode) { /* play_paths: the ways, only the flagged ones where some way is, then those with the most */
        int any = 0;
        for (int32_t w = 0; w < E->nways; w++) any |= E->way_flag[w];
        int only = T->has_mandatory && any;
        int32_t most = 0, legal = 0;
        for (int32_t w = 0; w < E->nways; w++)
            if ((!only || E->way_flag[w]) && E->way_most[w] > most) most = E->way_most[w];
        for (int32_t k = k0; k < E->nkeys; k++) E->keys[k].ways = 0;
        for (int32_t w = 0; w < E->nways; w++)
            if ((!only || E->way_flag[w]) && E->way_most[w] == most) {
                E->keys[E->way_key[w]].ways++;
                legal++;
            }
        for (int32_t k = k0; k < E->nkeys; k++) E->keys[k].legal = E->keys[k].ways > 0;
        return legal;
    }
    int any_flagged = 0;
    for (int32_t k = k0; k < E->nkeys; k++) any_flagged |= E->keys[k].accepted && E->keys[k].flagged;
    int only_flagged = T->has_mandatory && any_flagged;
    /* the solo turns and those told apart by hash, counted without keys (only in a bulk count's last ply) */
    int32_t legal = E->solo_legal + E->cnt_n, most = 0;
    for (int32_t k = k0; k < E->nkeys; k++) {
        Key *K = &E->keys[k];
        K->legal = K->accepted && (!only_flagged || K->flagged);
        if (T->has_maximum && K->legal) { /* maximum.keep_most: a turn's count, the same on each of its chains */
            if (K->most_lo != K->most_hi) return TP_ERR_MAXIMUM;
            if (K->most_lo > most) most = K->most_lo;
        }
        legal += K->legal;
    }
    if (most > 0) { /* some turn holds moves of the rule's classes: only those with the most stay legal */
        legal = 0;
        for (int32_t k = k0; k < E->nkeys; k++) {
            Key *K = &E->keys[k];
            K->legal = K->legal && K->most_lo == most;
            legal += K->legal;
        }
    }
    return legal;
}

/* ---- end rules and perft (EndRules.outcome(part="moves"), perft._counter) ---------------------- */

static int in_check(tp_engine *E, Board *B, int32_t p) {
    const tp_tables *T = TABLES(E);
    if (!T->has_royal) return 0;
    int32_t nm = royal_tiles(E, B, p, E->mine);
    return nm ? attacked(E, B, E->mine, nm, p) : 0;
}

/* An exact line (its k tiles, then the two beside them, -1 off the board): its k tiles in the mask, neither beside. */
static inline int exact_line(const Board *B, const uint8_t *mask, const int32_t *line, int32_t k) {
    int32_t i = 1, a = line[0], z = line[k + 1];
    while (i <= k && mask[B->codes[line[i]]]) i++;
    return i > k && (a < 0 || !mask[B->codes[a]]) && (z < 0 || !mask[B->codes[z]]);
}

static int has_line(const tp_engine *E, const Board *B, int32_t e, int32_t m) {
    const tp_tables *T = TABLES(E);
    const uint8_t *mask = T->masks + (size_t)m * (size_t)T->nd;
    int32_t k = T->end_k[e];
    if (T->end_exact[e]) {
        for (int32_t l = T->end_line_off[e]; l < T->end_line_off[e + 1]; l += k + 2)
            if (exact_line(B, mask, T->line_tiles + l, k)) return 1;
        return 0;
    }
    for (int32_t l = T->end_line_off[e]; l < T->end_line_off[e + 1]; l += k) {
        int32_t i = 0;
        while (i < k && mask[B->codes[T->line_tiles[l + i]]]) i++;
        if (i == k) return 1;
    }
    return 0;
}

/* A line of end rule e, all its tiles in the mask, through a tile the last turn changed (chg: (tile, code) pairs);
   a complete line that the position before the turn did not have holds one of them.  An exact line is indexed by
   its two tiles beside it too: a line becomes exact where a stone beside it goes as well as where one joins it. */
static int has_line_at(const tp_engine *E, const Board *B, int32_t e, int32_t m, const int32_t *chg, int32_t nchg) {
    const tp_tables *T = TABLES(E);
    const uint8_t *mask = T->masks + (size_t)m * (size_t)T->nd;
    int32_t k = T->end_k[e], exact = T->end_exact[e];
    for (int32_t c = 0; c < nchg; c++) {
        int32_t u = chg[2 * c];
        if (!exact && !mask[B->codes[u]]) continue;
        const int32_t *row = E->lt_off + (size_t)e * (size_t)T->n + (size_t)u;
        for (int32_t j = row[0]; j < row[1]; j++) {
            const int32_t *line = T->line_tiles + E->lt_line[j];
            if (exact) {
                if (exact_line(B, mask, line, k)) return 1;
                continue;
            }
            int32_t i = 0;
            while (i < k && mask[B->codes[line[i]]]) i++;
            if (i == k) return 1;
        }
    }
    return 0;
}

/* ends.connects: one group of tiles holding codes of mask row m, joined through the neighbour lists, touches every
   region of connect rule e for player q (bits of conn_bits; a group that does touches the first). */
static int connects(tp_engine *E, const Board *B, int32_t e, int32_t q, int32_t m) {
    const tp_tables *T = TABLES(E);
    const uint8_t *mask = T->masks + (size_t)m * (size_t)T->nd;
    const int32_t *bits = T->conn_bits + ((size_t)e * (size_t)T->np + (size_t)q) * (size_t)T->n;
    int32_t full = T->conn_full[e];
    uint32_t g = next_gen(&E->cgen, E->cseen, (size_t)T->n);
    for (int32_t t = 0; t < T->n; t++) {
        if (!(bits[t] & 1) || !mask[B->codes[t]] || E->cseen[t] == g) continue;
        int32_t top = 0, acc = 0;
        E->cseen[t] = g;
        E->cstack[top++] = t;
        while (top) {
            int32_t u = E->cstack[--top];
            acc |= bits[u];
            for (int32_t k = T->nbr_off[u]; k < T->nbr_off[u + 1]; k++) {
                int32_t v = T->nbr[k];
                if (E->cseen[v] != g && mask[B->codes[v]]) {
                    E->cseen[v] = g;
                    E->cstack[top++] = v;
                }
            }
        }
        if (acc == full) return 1;
    }
    return 0;
}

/* 1 when a strict end rule (no-turns aside) ends the position, 0 if not, < 0 an error.  With `chg` (the last
   turn's changes, from a position no end rule ended), line rules read only the lines through the changed tiles
   (those read once the phases are over: every line, since the position before was not read).  A rule read after
   the phases is left out at ply 0 and after a turn of a phase (even in a rule set without phases, as Python). */
/* conds_hold for an end rule's conditions end_conds[k0 .. k1) on the whole board: a count over a region read as
   popcounts of its codes' bit sets within the region (cond_rbits), one over the whole board from the counts, the
   others as cond_holds reads them. */
static inline int end_conds_hold(const tp_engine *E, const Board *B, int32_t k0, int32_t k1) {
    const tp_tables *T = TABLES(E);
    size_t words = (size_t)E->words;
    for (int32_t k = k0; k < k1; k++) {
        int32_t c = T->end_conds[k];
        int64_t count = 0;
        if (E->cond_count[c]) { /* a count over the whole board: the counts of its codes, summed */
            for (int32_t i = T->cond_code_off[c]; i < T->cond_code_off[c + 1]; i++) count += B->count[T->cond_codes[i]];
        } else if (E->cond_region[c]) {
            const uint64_t *r = E->cond_rbits + (size_t)c * words;
            for (int32_t i = T->cond_code_off[c]; i < T->cond_code_off[c + 1]; i++)
                for (size_t w = 0; w < words; w++)
                    count += __builtin_popcountll(B->bits[(size_t)T->cond_codes[i] * words + w] & r[w]);
        } else {
            if (!cond_holds(E, B, c, -1)) return 0;
            continue;
        }
        if (!compare(count, T->cond_op[c], T->cond_value[c])) return 0;
    }
    return 1;
}

/* 1 where the last turn (chg: (tile, code) pairs) changed a tile of bit set `bits` (the union of a count end rule's
   regions, ec_bits): 0 where it left them all alone, so its conditions read as on the position before it.  O(nchg). */
static inline int end_conds_touched(const uint64_t *bits, const int32_t *chg, int32_t nchg) {
    for (int32_t j = 0; j < nchg; j++)
        if (bits[chg[2 * j] >> 6] >> (chg[2 * j] & 63) & 1) return 1;
    return 0;
}

static int ended(tp_engine *E, Board *B, int32_t p, int32_t ply, const int32_t *chg, int32_t nchg) {
    const tp_tables *T = TABLES(E);
    int incheck = -1;
    int in_phases = ply == 0 || phase_at(T, ply - 1) >= 0; /* EndRules._rule: the start is no turn of the play */
    for (int32_t e = 0; e < T->nends; e++) {
        if (T->end_after[e] && in_phases) continue;
        if (T->end_check[e] >= 0) {
            if (incheck < 0) {
                incheck = in_check(E, B, p);
                if (incheck < 0) return incheck;
            }
            if (incheck != T->end_check[e]) continue;
        }
        switch (T->end_kind[e]) {
        case END_PLIES:
            if (ply >= T->end_value[e]) return 1;
            break;
        case END_LINE:
            for (int32_t q = 0; q < T->np; q++) {
                int32_t m = T->end_pmask[e * T->np + q];
                if (m >= 0 && (chg && T->end_check[e] < 0 && !T->end_after[e]
                                   ? has_line_at(E, B, e, m, chg, nchg) : has_line(E, B, e, m)))
                    return 1;
            }
            break;
        case END_CHAIN:
            for (int32_t q = 0; q < T->np; q++) {
                int32_t i = e * T->np + q;
                if (!T->end_pmask[i] || (T->end_mover[e] && q != (p + T->np - 1) % T->np)) continue;
                int fit = 0;
                for (int32_t k = T->end_app_off[i]; !fit && k < T->end_app_off[i + 1]; k++)
                    fit = fits(E, B->codes, T->end_apps[k]);
                if (compare(fit, T->end_op[e], T->end_value[e])) return 1;
            }
            break;
        case END_CONNECT:
            for (int32_t q = 0; q < T->np; q++) {
                int32_t m = T->end_pmask[e * T->np + q];
                if (m >= 0 && connects(E, B, e, q, m)) return 1;
            }
            break;
        case END_COUNTER:
            if (compare(E->ctr[(size_t)E->ctr_top * (size_t)T->nctr + (size_t)T->end_counter[e]], T->end_op[e],
                        T->end_value[e]))
                return 1;
            break;
        default: /* END_COUNT */
            for (int32_t j = E->ec_off[e]; j < E->ec_off[e + 1]; j++) { /* the players the rule applies to */
                const int32_t *row = E->ec_rows + 3 * (size_t)j;
                /* after a turn from a position that went on (the rule did not hold there: read there as here, no
                   phase or royal test in the way), only where the turn changed what its conditions read */
                if (chg && row[2] >= 0 && !end_conds_touched(E->ec_bits + (size_t)row[2] * (size_t)E->words, chg, nchg))
                    continue;
                if (end_conds_hold(E, B, row[0], row[1])) return 1;
            }
        }
    }
    return 0;
}

static int apply_key(tp_engine *E, Board *B, const Key *K) {
    if (E->undo_top + K->len > E->undo_cap) return TP_ERR_CAP;
    for (int32_t c = 0; c < K->len; c++) put(E, B, E->chg[2 * (K->off + c)], E->chg[2 * (K->off + c) + 1]);
    return 0;
}

static int64_t perft(tp_engine *E, Board *B, int32_t p, int32_t ply, int32_t depth, const int32_t *last,
                     int32_t nlast);

/* RuleGame._carry: the counters after a turn at `ply` into the row after the current one: reset by the classes of
   the key's moves or the kind of the piece on its start tile before it (a pass, K NULL: neither), and while the
   phases last those of the regular play; the others grow by one.  TP_ERR_RESET where the key's chains disagree on
   what their classes reset (its least label path decides, which only the Python walk knows). */
static int next_counters(tp_engine *E, const Board *B, const Key *K, int32_t ply) {
    const tp_tables *T = TABLES(E);
    if (!T->nctr) return 0;
    if (E->ctr_top + 1 >= E->depth_cap) return TP_ERR_CAP;
    int32_t bits = 0;
    if (K) {
        if (K->reset_or != K->reset_and) return TP_ERR_RESET;
        bits = K->reset_or | T->code_reset[B->codes[K->start]];
    }
    if (T->nphases && phase_at(T, ply) >= 0) bits |= T->ctr_after;
    int32_t *cur = E->ctr + (size_t)E->ctr_top * (size_t)T->nctr;
    for (int32_t i = 0; i < T->nctr; i++) cur[T->nctr + i] = (bits >> i) & 1 ? 0 : cur[i] + 1;
    return 0;
}

/* perft below the position after a turn whose counters next_counters put in the next row. */
static int64_t perft_below(tp_engine *E, Board *B, int32_t p, int32_t ply, int32_t depth, const int32_t *last,
                           int32_t nlast) {
    E->ctr_top++;
    int64_t got = perft(E, B, p, ply, depth, last, nlast);
    E->ctr_top--;
    return got;
}

/* pass = "when-stuck" (RuleGame._all_turns): the player to move has no turn; if another player has one, the pass
   is the only turn (leaves below it), else there is none. */
static int64_t pass_turn(tp_engine *E, Board *B, int32_t p, int32_t ply, int32_t depth, int32_t k0, int32_t c0) {
    const tp_tables *T = TABLES(E);
    int32_t np = T->np;
    for (int32_t i = 1; i < np; i++) {
        int32_t got = node_turns_in(E, B, (p + i) % np, phase_at(T, ply));
        E->nkeys = k0;
        E->nchg = c0;
        if (got < 0) return got;
        if (got > 0 && depth > 1) {
            int r = next_counters(E, B, NULL, ply);
            return r < 0 ? r : perft_below(E, B, next_player(T, p, ply), ply + 1, depth - 1, NULL, 0);
        }
        if (got > 0) return 1;
    }
    return 0;
}

/* pass = "always": the pass, one more turn of an unfinished node (the position again, the next player), its leaves
   added to `total` (the node's other leaves); < 0 an error. */
static int64_t pass_always_turn(tp_engine *E, Board *B, int32_t p, int32_t ply, int32_t depth, int64_t total) {
    int64_t sub = depth > 1 ? next_counters(E, B, NULL, ply) : 0;
    if (sub == 0) sub = depth > 1 ? perft_below(E, B, next_player(TABLES(E), p, ply), ply + 1, depth - 1, NULL, 0) : 1;
    int64_t ways = 1; /* in ways mode with pass_pieces, one way per piece of the mover (lifted, put back) */
    if (E->ways_mode && TABLES(E)->pass_pieces) {
        ways = 0;
        for (int32_t c = 0; c < TABLES(E)->nd; c++)
            if (TABLES(E)->own_code[(size_t)p * (size_t)TABLES(E)->nd + (size_t)c]) ways += B->count[c];
    }
    return sub < 0 ? sub : total + ways * sub;
}

static int moves_idle(tp_engine *E, const Board *B, int32_t p);

#ifdef TP_GEN_PERFT
/* perft for a rule set whose quiet moves (whole turns, told apart by their ends) are counted without keys. */
static int64_t TP_GEN_PERFT(tp_engine *E, Board *B, int32_t p, int32_t ply, int32_t depth, const int32_t *last,
                            int32_t nlast);
#endif

static int64_t perft(tp_engine *E, Board *B, int32_t p, int32_t ply, int32_t depth, const int32_t *last,
                     int32_t nlast) {
#ifdef TP_GEN_PERFT
    return TP_GEN_PERFT(E, B, p, ply, depth, last, nlast);
#endif
    int r = ended(E, B, p, ply, last, nlast);
    if (r) return r < 0 ? r : 0;
    int32_t k0 = E->nkeys, c0 = E->nchg;
    /* the last ply of a bulk count: solo leaf turns counted without keys (a mandatory class needs every key's flag,
       the maximum rule every key's count) */
    E->solo_on = depth == 1 && !E->make_leaves && !E->ways_mode && !TABLES(E)->has_mandatory
                 && !TABLES(E)->has_maximum;
    /* and, with no royal rule (a key's royal test is made once for all its chains), every turn told apart by hash,
       also where the leaves are made (each new turn written: count_turn's callers) */
    E->cnt_on = depth == 1 && !E->ways_mode && !TABLES(E)->has_mandatory && !TABLES(E)->has_maximum
                && E->cnt_dup < 2 && !TABLES(E)->has_royal && !E->chains_mode;
    /* a plain solo's turn (solo_plain) needs neither the key nor the board's hash: counted, or made and taken back */
    E->plain_on = depth == 1 && !E->ways_mode && !TABLES(E)->has_mandatory && !TABLES(E)->has_maximum
                  && !E->chains_mode;
    if (E->plain_on && E->plain_any && TABLES(E)->mgrp_off[p + 1] > TABLES(E)->mgrp_off[p] && !moves_idle(E, B, p))
        E->solo_on = E->plain_on = 0; /* plain solos (solo_plain) only where the clean-ups after each move are idle */
    /* and where two chains from one tile to one tile make one turn (pair_ready), by (start, end) alone */
    pair_begin(E);
    /* a perft's count: its turns in any order, found from triggers (carried pieces, whose trigger is the piece on its
       row's own tile, row by row: fewer instructions) */
    E->pair_any = E->pair_on && !E->pair_hops;
    E->hop_fast = hop_fast_for(E, p);
    E->hop_keys = depth > 1 && hop_keys_for(E, p); /* an inner node's carried pieces keyed from the floods */
    if (E->hop_keys) pair_fresh(E);
    E->shut_keys = depth > 1; /* an inner node's shut cells keyed straight (node_turns_in): its keys in any order */
    /* and its plain solos, where a count's last ply would count them (plain_on's conditions at depth 1) */
    E->plain_keys = depth > 1 && !E->ways_mode && !TABLES(E)->has_mandatory && !TABLES(E)->has_maximum
                    && !E->chains_mode && !TABLES(E)->has_royal
                    && !(E->plain_any && TABLES(E)->mgrp_off[p + 1] > TABLES(E)->mgrp_off[p] && !moves_idle(E, B, p));
    int64_t total = node_turns_in(E, B, p, phase_at(TABLES(E), ply));
    while (total == TP_ERR_DUP) { /* a hash seen twice: this node, and the later ones, with witnesses, then keys */
        E->cnt_on = ++E->cnt_dup < 2;
        E->nkeys = k0;
        E->nchg = c0;
        total = node_turns_in(E, B, p, phase_at(TABLES(E), ply));
    }
    E->solo_on = 0;
    E->plain_on = 0;
    E->cnt_on = 0;
    E->pair_on = 0;
    E->pair_any = 0;
    E->shut_keys = 0;
    E->plain_keys = 0;
    E->hop_fast = E->hop_keys = 0;
    int stuck = total == 0;
    if (total >= 0 && depth == 1 && E->make_leaves) { /* every leaf turn made and taken back, not only counted */
        for (int32_t k = k0; k < E->nkeys && total >= 0; k++) {
            if (!E->keys[k].legal) continue;
            int32_t mark = E->undo_top;
            if (apply_key(E, B, &E->keys[k]) < 0) total = TP_ERR_CAP;
            restore(E, B, mark);
        }
    }
    if (total >= 0 && depth > 1) {
        int32_t k1 = E->nkeys, q = next_player(TABLES(E), p, ply);
        total = 0;
        for (int32_t k = k0; k < k1; k++) {
            if (!E->keys[k].legal) continue;
            int32_t mark = E->undo_top;
            const Key *K = &E->keys[k];
            int64_t sub = next_counters(E, B, K, ply);
            if (sub == 0) sub = apply_key(E, B, K);
            if (sub == 0) sub = perft_below(E, B, q, ply + 1, depth - 1, E->chg + 2 * (size_t)K->off, K->len);
            restore(E, B, mark);
            if (sub < 0) {
                total = sub;
                break;
            }
            total += E->ways_mode ? K->ways * sub : sub;
        }
    }
    if (stuck && TABLES(E)->passing) total = pass_turn(E, B, p, ply, depth, k0, c0);
    E->nkeys = k0;
    E->nchg = c0;
    if (total >= 0 && TABLES(E)->pass_always) total = pass_always_turn(E, B, p, ply, depth, total);
    return total;
}

/* ---- the interface ------------------------------------------------------------------------------ */

static int offsets_ok(const int32_t *off, int32_t rows, int32_t len) {
    if (off[0] != 0 || off[rows] != len) return 0;
    for (int32_t i = 0; i < rows; i++)
        if (off[i] > off[i + 1]) return 0;
    return 1;
}

static int all_below(const int32_t *v, int32_t len, int32_t lo, int32_t hi) {
    for (int32_t i = 0; i < len; i++)
        if (v[i] < lo || v[i] >= hi) return 0;
    return 1;
}

/* Every index in the tables within its bounds: 0, or the (negative) number of the first failed check. */
int32_t tp_check(const tp_tables *t) {
    int32_t n = t->n, nd = t->nd, np = t->np, na = t->napps;
    int32_t err = 0;
#define CHECK(cond) do { err--; if (!(cond)) return err; } while (0)
    CHECK(n > 0 && nd > 0 && np > 0 && na >= 0 && t->nmasks >= 0 && t->nmaps >= 0);
    CHECK(t->nphases >= 0 && (int64_t)(t->nphases + 1) * np * n * nd < INT32_MAX && (int64_t)t->nmasks * nd < INT32_MAX
          && (int64_t)t->nmaps * nd < INT32_MAX);
    CHECK(all_below(t->maps, t->nmaps * nd, 0, nd));
    CHECK(all_below(t->app_tile, na, 0, n) && all_below(t->app_to, na, -1, n)
          && all_below(t->app_slide, na, -1, INT32_MAX));
    CHECK(offsets_ok(t->chk_off, na, t->nchk) && all_below(t->chk_tile, t->nchk, 0, n)
          && all_below(t->chk_mask, t->nchk, 0, t->nmasks));
    CHECK(offsets_ok(t->wr_off, na, t->nwr) && all_below(t->wr_tile, t->nwr, 0, n) && all_below(t->wr_src, t->nwr, 0, n)
          && all_below(t->wr_map, t->nwr, 0, t->nmaps));
    CHECK(offsets_ok(t->lnk_off, na, t->nlinks) && offsets_ok(t->tgt_off, t->nlinks, t->ntgt)
          && all_below(t->tgt, t->ntgt, 0, na));
    CHECK(offsets_ok(t->safe_off, na, t->nsafe) && all_below(t->safe_tile, t->nsafe, 0, n));
    CHECK(offsets_ok(t->ent_off, (t->nphases + 1) * np * n * nd, t->nent) && all_below(t->ent_app, t->nent, 0, na));
    CHECK(offsets_ok(t->grp_off, np, t->mgrp_off[0]) && t->mgrp_off[np] == t->ngroups
          && offsets_ok(t->grp_cond_off, t->ngroups, t->ngrp_cond)
          && all_below(t->grp_cond, t->ngrp_cond, 0, t->nconds));
    CHECK(offsets_ok(t->grp_app_off, t->ngroups, t->ngrp_app) && all_below(t->grp_app, t->ngrp_app, 0, na));
    CHECK(offsets_ok(t->grp_trig_off, t->ngroups, t->ngrp_trig) && all_below(t->grp_trig, t->ngrp_trig, 0, nd));
    for (int32_t g = 0; g < t->ngroups; g++) {
        const int32_t *row = t->grp_tile_off + (size_t)g * (size_t)(n + 1);
        CHECK(!t->grp_indexed[g] || (row[0] == t->grp_app_off[g] && row[n] == t->grp_app_off[g + 1]));
        for (int32_t u = 0; u < n; u++) CHECK(row[u] <= row[u + 1] && row[u] >= t->grp_app_off[g]);
    }
    for (int32_t p = 0; p < np; p++) CHECK(t->mgrp_off[p] <= t->mgrp_off[p + 1]);
    CHECK(all_below(t->cond_kind, t->nconds, 0, 4) && all_below(t->cond_op, t->nconds, 0, 6)
          && all_below(t->cond_mask, t->nconds, 0, t->nmasks));
    CHECK(offsets_ok(t->cond_code_off, t->nconds, t->ncond_codes) && all_below(t->cond_codes, t->ncond_codes, 0, nd));
    CHECK(offsets_ok(t->cond_tile_off, t->nconds, t->ncond_tiles) && all_below(t->cond_tiles, t->ncond_tiles, 0, n));
    CHECK(all_below(t->probe, np, -1, nd));
    if (t->has_royal) {
        CHECK(offsets_ok(t->att_off, np * n, t->natt) && all_below(t->att_tile, t->natt, 0, n)
              && all_below(t->att_mask, t->natt, 0, t->nmasks));
        CHECK(offsets_ok(t->att_app_off, t->natt, t->natt_apps) && all_below(t->att_app, t->natt_apps, 0, na)
              && all_below(t->att_app_mask, t->natt_apps, 0, t->nmasks));
    }
    CHECK(all_below(t->end_kind, t->nends, 1, 7) && all_below(t->end_check, t->nends, -1, 2));
    CHECK(offsets_ok(t->end_cond_off, t->nends * np, t->nend_conds) && all_below(t->end_conds, t->nend_conds, 0, t->nconds));
    CHECK(offsets_ok(t->end_line_off, t->nends, t->nline_tiles) && all_below(t->line_tiles, t->nline_tiles, -1, n)
          && all_below(t->end_exact, t->nends, 0, 2));
    for (int32_t e = 0; e < t->nends; e++) {
        int32_t stride = t->end_k[e] + 2 * t->end_exact[e];
        CHECK(t->end_k[e] > 0 || t->end_line_off[e + 1] == t->end_line_off[e]);
        CHECK(t->end_k[e] <= 0 || (t->end_line_off[e + 1] - t->end_line_off[e]) % stride == 0);
        for (int32_t l = t->end_line_off[e]; l < t->end_line_off[e + 1]; l++)
            CHECK(t->line_tiles[l] >= 0 || (t->end_exact[e] && ((l - t->end_line_off[e]) % stride == 0
                                                              || (l - t->end_line_off[e]) % stride == stride - 1)));
        for (int32_t q = 0; q < np; q++) {
            int32_t v = t->end_pmask[e * np + q];
            CHECK(t->end_kind[e] == END_LINE || t->end_kind[e] == END_CONNECT ? (v >= -1 && v < t->nmasks)
                                                                             : (v == 0 || v == 1));
        }
    }
    CHECK(offsets_ok(t->app_ray_off, na, t->nrays) && offsets_ok(t->ray_tile_off, t->nrays, t->nray_tiles)
          && all_below(t->ray_tiles, t->nray_tiles, 0, n) && all_below(t->ray_code, t->nray_tiles, 0, nd));
    CHECK(all_below(t->app_over, na, 0, t->nmasks > 0 ? t->nmasks : 1)
          && all_below(t->app_until, na, 0, t->nmasks > 0 ? t->nmasks : 1) && all_below(t->app_need, na, 0, INT32_MAX));
    for (int32_t a = 0; a < na; a++) CHECK(t->app_ray_off[a + 1] == t->app_ray_off[a] || t->nmasks > 0);
    CHECK(offsets_ok(t->nbr_off, n, t->nnbr) && all_below(t->nbr, t->nnbr, 0, n));
    CHECK(offsets_ok(t->lnk_cond_off, t->nlinks, t->nlnk_cond) && all_below(t->lnk_cond, t->nlnk_cond, 0, t->nconds));
    CHECK(offsets_ok(t->app_cond_off, na, t->napp_cond) && all_below(t->app_cond, t->napp_cond, 0, t->nconds));
    CHECK(all_below(t->app_gc, na, -1, t->ngc) && all_below(t->gc_becomes, t->ngc, 0, nd)
          && all_below(t->gc_foe, t->ngc, 0, t->nmasks) && all_below(t->gc_lib, t->ngc, 0, t->nmasks)
          && all_below(t->gc_own, t->ngc, 0, t->nmasks) && all_below(t->gc_suicide, t->ngc, 0, 2));
    CHECK(all_below(t->conn_full, t->nends, 0, INT32_MAX));
    CHECK(all_below(t->lnk_line, t->nlinks, -1, t->nends));
    CHECK(offsets_ok(t->end_app_off, t->nends * np, t->nend_apps) && all_below(t->end_apps, t->nend_apps, 0, na)
          && all_below(t->end_op, t->nends, 0, 6) && all_below(t->end_mover, t->nends, 0, 2));
    for (int32_t l = 0; l < t->nlinks; l++) CHECK(t->lnk_line[l] < 0 || t->end_kind[t->lnk_line[l]] == END_LINE);
    CHECK(offsets_ok(t->phase_order_off, t->nphases, t->nphase_order) && all_below(t->phase_order, t->nphase_order, 0, np)
          && all_below(t->phase_plies, t->nphases, 1, INT32_MAX) && t->first_player >= 0 && t->first_player < np
          && (t->pass_always == 0 || t->pass_always == 1) && (t->flies_over == 0 || t->flies_over == 1));
    CHECK(t->nctr >= 0 && t->nctr <= 31 && all_below(t->end_counter, t->nends, -1, t->nctr));
    CHECK(all_below(t->app_block_sig, na, -1, na) && (t->pass_pieces == 0 || t->pass_pieces == 1));
    CHECK(t->has_maximum == 0 || t->has_maximum == 1);
    CHECK(t->nsep >= 2 && t->sep_comma > 0 && t->sep_comma < t->nsep && all_below(t->app_sep, na, 0, t->nsep));
    for (int32_t a = 0; a < na; a++) CHECK((t->app_block_sig[a] >= 0) == (t->app_block[a] != 0));
    for (int32_t e = 0; e < t->nends; e++) CHECK((t->end_kind[e] == END_COUNTER) == (t->end_counter[e] >= 0));
    for (int32_t i = 0; i < t->nphases; i++) CHECK(t->phase_order_off[i + 1] > t->phase_order_off[i]);
    CHECK(t->nlsets >= 0 && (int64_t)t->nlsets * n < INT32_MAX && offsets_ok(t->lset_off, t->nlsets * n, t->nlset_line)
          && all_below(t->lset_line, t->nlset_line, 0, t->nlset_tiles)
          && all_below(t->lset_tiles, t->nlset_tiles, 0, n) && all_below(t->cond_lset, t->nconds, -1, t->nlsets)
          && all_below(t->cond_line, t->nconds, 0, n + 1));
    for (int32_t c = 0; c < t->nconds; c++) {
        CHECK((t->cond_line[c] > 0) == (t->cond_lset[c] >= 0));
        for (int32_t j = t->cond_lset[c] < 0 ? 0 : t->lset_off[(size_t)t->cond_lset[c] * n];
             t->cond_lset[c] >= 0 && j < t->lset_off[(size_t)(t->cond_lset[c] + 1) * n]; j++)
            CHECK(t->lset_line[j] + t->cond_line[c] <= t->nlset_tiles);
    }
    CHECK(offsets_ok(t->cond_any_off, t->nconds, t->ncond_any) && all_below(t->cond_any, t->ncond_any, 0, t->nconds)
          && offsets_ok(t->ar_off, n, t->nar)
          && all_below(t->ar, t->nar, 0, n));
    for (int32_t c = 0; c < t->nconds; c++) /* an alternative is listed before its disjunction, and is none itself */
        for (int32_t k = t->cond_any_off[c]; k < t->cond_any_off[c + 1]; k++)
            CHECK(t->cond_any[k] < c && t->cond_kind[t->cond_any[k]] != COND_ANY);
    CHECK(t->steps >= 0 && all_below(t->app_cost, na, 0, 65));
    CHECK(t->nltab >= 0 && (int64_t)t->nltab * n * nd < INT32_MAX && all_below(t->lnk_table, t->nlinks, -1, t->nltab)
          && offsets_ok(t->ltab_off, t->nltab * n * nd, t->nltab_app) && all_below(t->ltab_app, t->nltab_app, 0, na));
#undef CHECK
    return 0;
}

/* Whether applications a and b cannot both fit one position: some tile both check with masks that share no code
   (mb: each mask row as bit sets of mw words). */
static int exclusive(const tp_tables *t, const uint64_t *mb, size_t mw, int32_t a, int32_t b) {
    for (int32_t i = t->chk_off[a]; i < t->chk_off[a + 1]; i++)
        for (int32_t j = t->chk_off[b]; j < t->chk_off[b + 1]; j++) {
            if (t->chk_tile[i] != t->chk_tile[j]) continue;
            const uint64_t *x = mb + (size_t)t->chk_mask[i] * mw, *y = mb + (size_t)t->chk_mask[j] * mw;
            size_t w = 0;
            while (w < mw && !(x[w] & y[w])) w++;
            if (w == mw) return 1;
        }
    return 0;
}

/* one_cell, where `conds` also admits the move's own count conditions (cond_cell). */
static int32_t cell_of(const tp_tables *t, int32_t a, int32_t *v, int conds) {
    int32_t u = t->app_tile[a], x = -1;
    size_t nd = (size_t)t->nd;
    if (t->wr_off[a + 1] - t->wr_off[a] != 1 || t->wr_tile[t->wr_off[a]] != u || t->wr_src[t->wr_off[a]] != u
        || t->app_ray_off[a + 1] > t->app_ray_off[a] || t->app_gc[a] >= 0
        || (!conds && t->app_cond_off[a + 1] > t->app_cond_off[a]) || t->safe_off[a + 1] > t->safe_off[a]
        || t->app_slide[a] >= 0 || t->app_block[a] || t->chk_off[a + 1] == t->chk_off[a])
        return -1;
    for (size_t c = 0; c < nd; c++) { /* the codes every check (all on u) admits: exactly one */
        int ok = 1;
        for (int32_t k = t->chk_off[a]; ok && k < t->chk_off[a + 1]; k++)
            ok = t->chk_tile[k] == u && t->masks[(size_t)t->chk_mask[k] * nd + c];
        if (!ok) continue;
        if (x >= 0) return -1;
        x = (int32_t)c;
    }
    for (int32_t k = t->chk_off[a]; k < t->chk_off[a + 1]; k++)
        if (t->chk_tile[k] != u) return -1;
    if (x < 0) return -1;
    *v = t->maps[(size_t)t->wr_map[t->wr_off[a]] * nd + (size_t)x];
    return *v == x ? -1 : x;
}

/* The one code application a reads and writes where it is a single cell (it checks only its own tile, for one code,
   and writes only that tile from that tile, changing it; no captures, conditions, safe cells, slide or block), else
   -1; *v the code it writes. */
static int32_t one_cell(const tp_tables *t, int32_t a, int32_t *v) {
    return cell_of(t, a, v, 0);
}

/* one_cell, the move's own count conditions admitted (read on the node's position, before its write, as the entry
   scan reads them: fits and app_conds_hold). */
static int32_t cond_cell(const tp_tables *t, int32_t a, int32_t *v) {
    return cell_of(t, a, v, 1);
}

/* 1 when applications a and b are single cells (one_cell) reading code x and writing v, alike in what a turn's key
   reads of its moves (class flag, counter resets, the maximum rule's count), b ending a chain (final, no links). */
static int twin_cell(const tp_tables *t, int32_t a, int32_t b, int32_t x, int32_t v, int end) {
    int32_t vb = -1;
    if (one_cell(t, b, &vb) != x || vb != v || t->app_flag[a] != t->app_flag[b] || t->app_reset[a] != t->app_reset[b]
        || t->app_max[a] != t->app_max[b])
        return 0;
    return !end || (t->app_final[b] && t->lnk_off[b + 1] == t->lnk_off[b]);
}

/* 1 when link l2 may continue with an application alike a (twin_cell, ending the chain) at tile s holding code x. */
static int links_to_twin(const tp_tables *t, int32_t l2, int32_t a, int32_t s, int32_t x, int32_t v) {
    int32_t tb = t->lnk_table[l2];
    if (tb < 0) {
        for (int32_t k = t->tgt_off[l2]; k < t->tgt_off[l2 + 1]; k++)
            if (t->app_tile[t->tgt[k]] == s && twin_cell(t, a, t->tgt[k], x, v, 1)) return 1;
        return 0;
    }
    const int32_t *row = t->ltab_off + ((size_t)tb * (size_t)t->n + (size_t)s) * (size_t)t->nd + (size_t)x;
    for (int32_t k = row[0]; k < row[1]; k++)
        if (twin_cell(t, a, t->ltab_app[k], x, v, 1)) return 1;
    return 0;
}

/* 1 when the chain of entry a (at s, reading x, writing v) then b (at u < s) is also walked the other way round in
   entry set `set`: b a single cell alike a ending the chain, and an entry b' at u alike b with a link of l's
   conditions, not stopped by lines, that may continue with an application alike a at s (links_to_twin). */
static int other_way(const tp_tables *t, int32_t set, int32_t l, int32_t a, int32_t s, int32_t x, int32_t v, int32_t b) {
    size_t n = (size_t)t->n, nd = (size_t)t->nd;
    int32_t c0 = t->lnk_cond_off[l], c1 = t->lnk_cond_off[l + 1], u = t->app_tile[b];
    if (!twin_cell(t, a, b, x, v, 1)) return 0;
    const int32_t *eb = t->ent_off + ((size_t)set * n + (size_t)u) * nd + (size_t)x;
    for (int32_t j = eb[0]; j < eb[1]; j++) {
        int32_t b2 = t->ent_app[j];
        if (!twin_cell(t, a, b2, x, v, 0)) continue;
        for (int32_t l2 = t->lnk_off[b2]; l2 < t->lnk_off[b2 + 1]; l2++)
            if (t->lnk_line[l2] < 0 && t->lnk_cond_off[l2 + 1] - t->lnk_cond_off[l2] == c1 - c0
                && !memcmp(t->lnk_cond + t->lnk_cond_off[l2], t->lnk_cond + c0, (size_t)(c1 - c0) * sizeof(int32_t))
                && links_to_twin(t, l2, a, s, x, v))
                return 1;
    }
    return 0;
}

/* E->bl_off, bl_app, bl_any where the rule set has a step budget (budget_rows): per steps left L, each link table row
   with only its applications costing at most L, in their order.  Cost: (steps + 1) passes over the link tables. */
static int budget_tables(tp_engine *E) {
    const tp_tables *t = TABLES(E);
    if (!t->steps || !t->nltab) return 0;
    size_t rows = (size_t)t->nltab * (size_t)t->n * (size_t)t->nd, levels = (size_t)t->steps + 1, k = 0;
    E->bl_off = malloc((levels * rows + 1) * sizeof(int32_t));
    E->bl_app = malloc((levels * (size_t)t->nltab_app + 1) * sizeof(int32_t));
    E->bl_any = calloc(levels * (size_t)t->nltab + 1, 1);
    if (!E->bl_off || !E->bl_app || !E->bl_any) return -1;
    for (size_t l = 0; l < levels; l++)
        for (size_t r = 0; r < rows; r++) {
            E->bl_off[l * rows + r] = (int32_t)k;
            for (int32_t i = t->ltab_off[r]; i < t->ltab_off[r + 1]; i++)
                if ((size_t)t->app_cost[t->ltab_app[i]] <= l) {
                    E->bl_app[k++] = t->ltab_app[i];
                    E->bl_any[l * (size_t)t->nltab + r / ((size_t)t->n * (size_t)t->nd)] = 1;
                }
        }
    E->bl_off[levels * rows] = (int32_t)k;
    return 0;
}

/* E->once: the links l of entry applications a (at tile s) whose chains of two moves, a then a follow-up b at a tile
   u < s, are each also walked the other way round with the same turn, so that the walk may leave them out: keys by
   changes alone; no steps, clean-ups after each move or slides flying over stops; a and every such b single cells
   alike (one_cell, twin_cell: one code read, the same code written, b ending the chain); l not stopped by lines, its
   conditions whole-board counts (a and b change them alike); and in every entry set of a, an entry b' at u alike b
   with a link of the same conditions that may continue with an application alike a at s (other_way).  The two
   chains read and write only s and u, each finding the code the other leaves: both fit on the node's position (with
   their links' conditions) and give one position, one key.  Cost: per link of a single cell, its follow-ups before
   s and the entries there; past 2^24 steps in all, none. */
static void once_links(tp_engine *E) {
    const tp_tables *t = TABLES(E);
    size_t n = (size_t)t->n, nd = (size_t)t->nd, work = 0;
    int32_t nsets = (t->nphases + 1) * t->np;
    if (!t->keyed_by_changes || t->steps || t->flies_over || t->mgrp_off[t->np] > t->mgrp_off[0]) return;
    for (int32_t a = 0; a < t->napps; a++) {
        int32_t va = -1, xa = one_cell(t, a, &va), s = t->app_tile[a];
        if (xa < 0) continue;
        for (int32_t l = t->lnk_off[a]; l < t->lnk_off[a + 1]; l++) {
            int32_t tb = t->lnk_table[l];
            int ok = t->lnk_line[l] < 0;
            size_t pairs = work; /* some chain to leave out */
            for (int32_t c = t->lnk_cond_off[l]; ok && c < t->lnk_cond_off[l + 1]; c++) ok = E->cond_count[t->lnk_cond[c]];
            for (int32_t set = 0; ok && set < nsets; set++) {
                const int32_t *ea = t->ent_off + ((size_t)set * n + (size_t)s) * nd + (size_t)xa;
                int in = 0;
                for (int32_t i = ea[0]; i < ea[1]; i++) in |= t->ent_app[i] == a;
                if (!in) continue;
                if (tb < 0) {
                    for (int32_t k = t->tgt_off[l]; ok && k < t->tgt_off[l + 1]; k++)
                        if (t->app_tile[t->tgt[k]] < s)
                            ok = ++work <= ((size_t)1 << 24) && other_way(t, set, l, a, s, xa, va, t->tgt[k]);
                    continue;
                }
                for (int32_t u = 0; ok && u < s; u++)
                    for (size_t y = 0; ok && y < nd; y++) {
                        const int32_t *row = t->ltab_off + ((size_t)tb * n + (size_t)u) * nd + y;
                        for (int32_t i = row[0]; ok && i < row[1]; i++)
                            ok = ++work <= ((size_t)1 << 24) && t->app_tile[t->ltab_app[i]] == u
                                 && other_way(t, set, l, a, s, xa, va, t->ltab_app[i]);
                    }
            }
            E->once[l] = (uint8_t)(ok && work > pairs);
        }
    }
}

/* 1 when application a is a plain step of a slide: a move that repeats, with a `to` tile, and no captures,
   conditions, safe cells or block. */
static int slide_step(const tp_tables *t, int32_t a) {
    return t->app_slide[a] >= 0 && t->app_to[a] >= 0 && t->app_ray_off[a + 1] == t->app_ray_off[a] && t->app_gc[a] < 0
           && t->app_cond_off[a + 1] == t->app_cond_off[a] && t->safe_off[a + 1] == t->safe_off[a] && !t->app_block[a];
}

/* 1 when applications a and b are alike in all the walk reads of them but their move: tile, `to` tile, checks,
   writes, and what a turn's key reads (class flag, counter resets, the maximum rule's count, final). */
static int slide_alike(const tp_tables *t, int32_t a, int32_t b) {
    int32_t c0 = t->chk_off[a], nc = t->chk_off[a + 1] - c0, d0 = t->chk_off[b], w0 = t->wr_off[a];
    int32_t nw = t->wr_off[a + 1] - w0, x0 = t->wr_off[b];
    if (t->app_tile[a] != t->app_tile[b] || t->app_to[a] != t->app_to[b] || t->app_flag[a] != t->app_flag[b]
        || t->app_reset[a] != t->app_reset[b] || t->app_max[a] != t->app_max[b] || t->app_final[a] != t->app_final[b]
        || t->chk_off[b + 1] - d0 != nc || t->wr_off[b + 1] - x0 != nw)
        return 0;
    size_t sc = (size_t)nc * sizeof(int32_t), sw = (size_t)nw * sizeof(int32_t);
    return !memcmp(t->chk_tile + c0, t->chk_tile + d0, sc) && !memcmp(t->chk_mask + c0, t->chk_mask + d0, sc)
           && !memcmp(t->wr_tile + w0, t->wr_tile + x0, sw) && !memcmp(t->wr_src + w0, t->wr_src + x0, sw)
           && !memcmp(t->wr_map + w0, t->wr_map + x0, sw);
}

/* 1 when link l is plain (no conditions, not stopped by lines) and, read through a list (not a table), continues
   only with applications of slide m. */
static int slide_link(const tp_tables *t, int32_t l, int32_t m) {
    if (t->lnk_line[l] >= 0 || t->lnk_cond_off[l + 1] > t->lnk_cond_off[l]) return 0;
    for (int32_t k = t->tgt_off[l]; t->lnk_table[l] < 0 && k < t->tgt_off[l + 1]; k++)
        if (t->app_slide[t->tgt[k]] != m) return 0;
    return 1;
}

/* 1 when every continuation of slide step a (its list links' targets) has a twin (slide_alike) among b's. */
static int twin_continues(const tp_tables *t, int32_t a, int32_t b) {
    for (int32_t l = t->lnk_off[a]; l < t->lnk_off[a + 1]; l++)
        for (int32_t k = t->tgt_off[l]; t->lnk_table[l] < 0 && k < t->tgt_off[l + 1]; k++) {
            int in = 0;
            for (int32_t l2 = t->lnk_off[b]; !in && l2 < t->lnk_off[b + 1]; l2++)
                for (int32_t j = t->tgt_off[l2]; !in && t->lnk_table[l2] < 0 && j < t->tgt_off[l2 + 1]; j++)
                    in = slide_alike(t, t->tgt[k], t->tgt[j]);
            if (!in) return 0;
        }
    return 1;
}

/* 1 when applications app[i0 .. i1) hold one of slide m alike a (slide_alike). */
static int has_twin(const tp_tables *t, const int32_t *app, int32_t i0, int32_t i1, int32_t m, int32_t a) {
    for (int32_t i = i0; i < i1; i++)
        if (t->app_slide[app[i]] == m && slide_alike(t, a, app[i])) return 1;
    return 0;
}

/* Whether slide m's anywhere links may leave out the second slides that the other order gives (apart_slides): m's
   steps plain slide steps whose links are plain, each continuing m or read through a table of steps of one other
   slide m2 (at the table row's tile) whose steps are final and whose links continue m2 only, not forced; each step of
   m and m2 with a twin (slide_alike) in the other, and every pair of twins with continuations twins of each other's
   (twin_continues: being twins is a bisimulation, so a slide's steps have a twin slide step for step); and in every
   entry set, where an entry of m (or a step it continues to) reads a table, each of that table's steps has a twin
   among the set's entries at its tile and code, and each entry of m a twin in the table at its tile and code.
   tw, seen: [napps] scratch.  Cost: m's and m2's steps, the tables' rows
   and the entry rows, per entry set. */
static int apart_move(const tp_tables *t, int32_t m, int32_t *tw, int32_t *seen, const int32_t *at_off,
                     const int32_t *at_app, uint8_t *tabs) {
    size_t n = (size_t)t->n, nd = (size_t)t->nd;
    int32_t na = t->napps, m2 = -1, nsets = (t->nphases + 1) * t->np;
    for (int32_t a = 0; a < na; a++) {
        if (t->app_slide[a] != m) continue;
        if (!slide_step(t, a)) return 0;
        for (int32_t l = t->lnk_off[a]; l < t->lnk_off[a + 1]; l++) {
            int32_t tb = t->lnk_table[l];
            if (!slide_link(t, l, m)) return 0;
            if (tb < 0 || tabs[tb]) continue;
            tabs[tb] = 1;
            for (size_t r = 0; r < n * nd; r++)
                for (int32_t k = t->ltab_off[(size_t)tb * n * nd + r]; k < t->ltab_off[(size_t)tb * n * nd + r + 1]; k++) {
                    int32_t c = t->ltab_app[k];
                    if (m2 < 0) m2 = t->app_slide[c];
                    if (t->app_slide[c] != m2 || m2 == m || !slide_step(t, c) || (size_t)t->app_tile[c] != r / nd) return 0;
                }
        }
    }
    if (m2 < 0) return 0;
    for (int32_t a = 0; a < na; a++) { /* the twins, and m2's steps final with plain links continuing m2 */
        int32_t s = t->app_slide[a];
        if (s != m && s != m2) continue;
        if (s == m2) {
            if (!slide_step(t, a) || !t->app_final[a]) return 0;
            for (int32_t l = t->lnk_off[a]; l < t->lnk_off[a + 1]; l++)
                if (t->lnk_table[l] >= 0 || t->lnk_forced[l] || !slide_link(t, l, m2)) return 0;
        }
        int32_t u = t->app_tile[a], any = 0;
        for (int32_t i = at_off[u]; i < at_off[u + 1]; i++) {
            int32_t b = at_app[i];
            if (t->app_slide[b] != (s == m ? m2 : m) || !slide_alike(t, a, b)) continue;
            any = 1;
            if (s == m && (!twin_continues(t, a, b) || !twin_continues(t, b, a))) return 0;
        }
        if (!any) return 0;
    }
    for (int32_t set = 0; set < nsets; set++) { /* m's entries in the set, the steps they continue to, their tables */
        int32_t top = 0;
        memset(tabs, 0, (size_t)t->nltab);
        for (int32_t a = 0; a < na; a++) seen[a] = 0;
        for (size_t r = 0; r < n * nd; r++)
            for (int32_t i = t->ent_off[(size_t)set * n * nd + r]; i < t->ent_off[(size_t)set * n * nd + r + 1]; i++) {
                int32_t a = t->ent_app[i];
                if (t->app_slide[a] == m && !seen[a]) {
                    seen[a] = 1;
                    tw[top++] = a; /* tw: the stack */
                }
            }
        while (top > 0) {
            int32_t a = tw[--top];
            for (int32_t l = t->lnk_off[a]; l < t->lnk_off[a + 1]; l++) {
                if (t->lnk_table[l] >= 0) tabs[t->lnk_table[l]] = 1;
                for (int32_t k = t->tgt_off[l]; t->lnk_table[l] < 0 && k < t->tgt_off[l + 1]; k++)
                    if (!seen[t->tgt[k]]) {
                        seen[t->tgt[k]] = 1;
                        tw[top++] = t->tgt[k];
                    }
            }
        }
        for (int32_t tb = 0; tb < t->nltab; tb++) {
            if (!tabs[tb]) continue;
            for (size_t r = 0; r < n * nd; r++) {
                size_t row = (size_t)set * n * nd + r, trow = (size_t)tb * n * nd + r;
                for (int32_t k = t->ltab_off[trow]; k < t->ltab_off[trow + 1]; k++)
                    if (!has_twin(t, t->ent_app, t->ent_off[row], t->ent_off[row + 1], m, t->ltab_app[k])) return 0;
                for (int32_t i = t->ent_off[row]; i < t->ent_off[row + 1]; i++)
                    if (t->app_slide[t->ent_app[i]] == m
                        && !has_twin(t, t->ltab_app, t->ltab_off[trow], t->ltab_off[trow + 1], m2, t->ent_app[i]))
                        return 0;
            }
        }
    }
    return 1;
}

/* 1 when tile u may hold code c where application a fits (every check of a on u admits it). */
static int check_admits(const tp_tables *t, int32_t a, int32_t u, int32_t c) {
    for (int32_t k = t->chk_off[a]; k < t->chk_off[a + 1]; k++)
        if (t->chk_tile[k] == u && !t->masks[(size_t)t->chk_mask[k] * (size_t)t->nd + (size_t)c]) return 0;
    return 1;
}

/* 1 when every write of application a changes its tile's code, on every board a fits (each code its checks admit
   there and at the write's source).  Cost: per write, nd^2 pairs of codes. */
static int writes_change(const tp_tables *t, int32_t a) {
    int32_t nd = t->nd;
    for (int32_t k = t->wr_off[a]; k < t->wr_off[a + 1]; k++) {
        int32_t u = t->wr_tile[k], src = t->wr_src[k];
        for (int32_t c = 0; c < nd; c++) {
            if (!check_admits(t, a, u, c)) continue;
            for (int32_t d = 0; d < nd; d++) {
                if (src == u ? d != c : !check_admits(t, a, src, d)) continue;
                if (t->maps[(size_t)t->wr_map[k] * (size_t)nd + (size_t)d] == c) return 0;
            }
        }
    }
    return 1;
}

/* E->apart, E->reach: the anywhere links of slides whose chains of two slides, a first slide A (from an entry at s)
   then a second C from a tile u < s, are each also walked the other way round where their tiles are apart: keys by
   changes alone; no steps or clean-ups after each move; and the slide's moves proved alike (apart_move).  Where C's
   reach (the tiles C or any continuation of it checks or writes) misses the tiles A checks and writes, the two
   slides read and write apart: C's twin fits from the node's entry at u, A's twin after it through the twin link,
   each final step ending a turn, and the two orders give one position, one key, the chain from u walked first (the
   entry scan goes by tile).  Neither chain meets a position twice (each move changes tiles the other's do not
   restore), so a slide flying over the chain's stops changes nothing here.  Cost: per slide move with an anywhere
   link, apart_move; the reaches to a fixed point, their length along a slide in rounds.  < 0 out of memory. */
static int apart_slides(tp_engine *E) {
    const tp_tables *t = TABLES(E);
    size_t n = (size_t)t->n, na = (size_t)t->napps, words = (size_t)E->words;
    if (!t->keyed_by_changes || t->steps || t->mgrp_off[t->np] > t->mgrp_off[0] || !t->nltab) return 0;
    int32_t *tw = malloc(na * sizeof(int32_t) + 1), *seen = malloc(na * sizeof(int32_t) + 1);
    int32_t *at_off = calloc(n + 2, sizeof(int32_t)), *at_app = malloc(na * sizeof(int32_t) + 1);
    int32_t nm = 0;
    for (size_t a = 0; a < na; a++) nm = t->app_slide[a] >= nm ? t->app_slide[a] + 1 : nm;
    uint8_t *tabs = calloc((size_t)t->nltab + 1, 1), *done = calloc((size_t)nm + 1, 1);
    int rc = -1;
    if (!tw || !seen || !at_off || !at_app || !tabs || !done) goto out;
    for (size_t a = 0; a < na; a++) at_off[t->app_tile[a] + 2]++; /* the applications by tile */
    for (size_t u = 0; u < n; u++) at_off[u + 2] += at_off[u + 1];
    for (size_t a = 0; a < na; a++) at_app[at_off[t->app_tile[a] + 1]++] = (int32_t)a;
    for (size_t a = 0; a < na; a++) {
        int32_t m = t->app_slide[a], any = 0;
        if (m < 0 || done[m]) continue;
        done[m] = 1;
        for (int32_t l = t->lnk_off[a]; l < t->lnk_off[a + 1]; l++) any |= t->lnk_table[l] >= 0;
        memset(tabs, 0, (size_t)t->nltab);
        if (!any || !apart_move(t, m, tw, seen, at_off, at_app, tabs)) continue;
        if (!E->apart && !(E->apart = calloc((size_t)t->nlinks + 1, 1))) goto out;
        for (size_t b = 0; b < na; b++)
            for (int32_t l = t->lnk_off[b]; t->app_slide[b] == m && l < t->lnk_off[b + 1]; l++)
                E->apart[l] = t->lnk_table[l] >= 0;
    }
    rc = 0;
    if (!E->apart) goto out;
    E->reach = calloc(na * words + 1, sizeof(uint64_t));
    E->apart_fa = calloc(words + 1, sizeof(uint64_t));
    E->apart_fc = malloc((3 * n + 3) * sizeof(int32_t));
    E->ac_cap = (int32_t)(8 * na + 64);
    E->ac_chg_cap = 6 * E->ac_cap;
    E->ac_stamp = calloc(na + 1, sizeof(uint32_t));
    E->ac_first = malloc((na + 1) * sizeof(int32_t));
    E->ac_num = malloc((na + 1) * sizeof(int32_t));
    E->ac_reset = malloc((size_t)E->ac_cap * sizeof(int32_t));
    E->ac_coff = malloc((size_t)E->ac_cap * sizeof(int32_t));
    E->ac_nc = malloc((size_t)E->ac_cap * sizeof(int32_t));
    E->ac_hash = malloc((size_t)E->ac_cap * sizeof(uint64_t));
    E->ac_chg = malloc((size_t)E->ac_chg_cap * sizeof(int32_t));
    E->meet_ok = calloc(na + 1, 1);
    if (!E->reach || !E->apart_fa || !E->apart_fc || !E->ac_stamp || !E->ac_first || !E->ac_num || !E->ac_reset
        || !E->ac_coff || !E->ac_nc || !E->ac_hash || !E->ac_chg || !E->meet_ok) {
        rc = -1;
        goto out;
    }
    for (size_t a = 0; a < na; a++) { /* each step's own tiles, then its continuations' to a fixed point */
        uint64_t *r = E->reach + a * words;
        r[t->app_tile[a] / 64] |= (uint64_t)1 << (t->app_tile[a] % 64);
        for (int32_t k = t->chk_off[a]; k < t->chk_off[a + 1]; k++) r[t->chk_tile[k] / 64] |= (uint64_t)1 << (t->chk_tile[k] % 64);
        for (int32_t k = t->wr_off[a]; k < t->wr_off[a + 1]; k++) r[t->wr_tile[k] / 64] |= (uint64_t)1 << (t->wr_tile[k] % 64);
    }
    for (int changed = 1; changed;) {
        changed = 0;
        for (size_t a = 0; a < na; a++)
            for (int32_t l = t->lnk_off[a]; t->app_slide[a] >= 0 && l < t->lnk_off[a + 1]; l++)
                for (int32_t k = t->tgt_off[l]; t->lnk_table[l] < 0 && k < t->tgt_off[l + 1]; k++)
                    for (size_t w = 0; w < words; w++) {
                        uint64_t *r = E->reach + a * words + w, x = *r | E->reach[(size_t)t->tgt[k] * words + w];
                        changed |= x != *r;
                        *r = x;
                    }
    }
    for (size_t a = 0; a < na; a++) { /* meet_ok: the slide steps writing their own and `to` tiles alone, each
                                          write a change, */
        int ok = slide_step(t, (int32_t)a) && writes_change(t, (int32_t)a);
        for (int32_t k = t->wr_off[a]; ok && k < t->wr_off[a + 1]; k++)
            ok = t->wr_tile[k] == t->app_tile[a] || t->wr_tile[k] == t->app_to[a];
        for (int32_t l = t->lnk_off[a]; ok && l < t->lnk_off[a + 1]; l++) ok = t->lnk_table[l] < 0;
        E->meet_ok[a] = (uint8_t)ok;
    }
    for (int changed = 1; changed;) { /* then those whose continuations are such steps, to a fixed point */
        changed = 0;
        for (size_t a = 0; a < na; a++)
            for (int32_t l = t->lnk_off[a]; E->meet_ok[a] && l < t->lnk_off[a + 1]; l++)
                for (int32_t k = t->tgt_off[l]; E->meet_ok[a] && k < t->tgt_off[l + 1]; k++)
                    if (!E->meet_ok[t->tgt[k]]) {
                        E->meet_ok[a] = 0;
                        changed = 1;
                    }
    }
out:
    free(tw);
    free(seen);
    free(at_off);
    free(at_app);
    free(tabs);
    free(done);
    return rc;
}

/* E->solo: the leaf applications (E->leaf) whose turn's key no other chain of a node can share, so that a count of
   the node's turns may count them without keys.  Keys are (start, end, changes): a leaf entry a at tile s ends on
   e_a = its `to` tile (s without one); another chain from s ends on the `to` tile of some application reachable from
   its entry through links (or on s where the entry has none), or anywhere through a link read by table.  a is solo
   when every other entry at s (any code, any entry set) either can end on no such tile or cannot fit the same
   position as a (exclusive: the two entries are read on the node's position).  Cost: per tile, its entries and the
   applications their links reach, run once in tp_new; past SOLO_WORK applications reached in all, the analysis
   stops and no application is solo (rule sets whose chains reach most of the board, as paper soccer's lines). */
static int solo_apps(tp_engine *E) {
    const tp_tables *t = TABLES(E);
    size_t n = (size_t)t->n, nd = (size_t)t->nd, na = (size_t)t->napps, words = (size_t)E->words;
    int32_t nsets = (t->nphases + 1) * t->np;
    if ((na + 1) * words > ((size_t)1 << 24)) return 0; /* too big to analyse: none solo */
    int32_t *ents = malloc((na + 1) * sizeof(int32_t)), *stack = malloc((na + 1) * sizeof(int32_t));
    uint32_t *seen = calloc(na + 1, sizeof(uint32_t)), *reach = calloc(na + 1, sizeof(uint32_t));
    uint64_t *ends = malloc((na + 1) * words * sizeof(uint64_t)); /* per entry at s: the tiles its chains may end on */
    uint8_t *ok = malloc(na + 1);
    size_t mw = (nd + 63) / 64;
    uint64_t *mb = calloc((size_t)t->nmasks * mw + 1, sizeof(uint64_t)); /* the mask rows as bit sets */
    if (!ents || !stack || !seen || !reach || !ends || !ok || !mb) {
        free(ents), free(stack), free(seen), free(reach), free(ends), free(ok), free(mb);
        return -1;
    }
    for (size_t m = 0; m < (size_t)t->nmasks; m++)
        for (size_t c = 0; c < nd; c++)
            if (t->masks[m * nd + c]) mb[m * mw + (c >> 6)] |= 1ULL << (c & 63);
    memcpy(ok, E->leaf, na);
    uint32_t gen = 0;
    size_t work = 0;
    for (int32_t set = 0; set < nsets && work <= SOLO_WORK; set++)
        for (size_t s = 0; s < n && work <= SOLO_WORK; s++) {
            int32_t ne = 0, any_leaf = 0; /* the entries at s, each once */
            gen++;
            for (size_t c = 0; c < nd; c++) {
                const int32_t *row = t->ent_off + ((size_t)set * n + s) * nd + c;
                for (int32_t i = row[0]; i < row[1]; i++)
                    if (seen[t->ent_app[i]] != gen) {
                        seen[t->ent_app[i]] = gen;
                        any_leaf |= ok[t->ent_app[i]];
                        ents[ne++] = t->ent_app[i];
                    }
            }
            if (!any_leaf) continue;
            for (int32_t j = 0; j < ne; j++) { /* each entry's end tiles: through its links, each application once */
                int32_t b = ents[j], top = 0;
                uint64_t *e = ends + (size_t)j * words;
                memset(e, 0, words * sizeof *e);
                if (t->app_to[b] < 0) e[s >> 6] |= 1ULL << (s & 63);
                gen++;
                reach[b] = gen;
                stack[top++] = b;
                while (top && ++work <= SOLO_WORK) {
                    int32_t x = stack[--top];
                    if (t->app_to[x] >= 0) e[t->app_to[x] >> 6] |= 1ULL << (t->app_to[x] & 63);
                    for (int32_t l = t->lnk_off[x]; l < t->lnk_off[x + 1]; l++) {
                        if (t->lnk_table[l] >= 0) memset(e, 0xff, words * sizeof *e); /* follow-ups anywhere */
                        for (int32_t k = t->tgt_off[l]; k < t->tgt_off[l + 1]; k++)
                            if (reach[t->tgt[k]] != gen) {
                                reach[t->tgt[k]] = gen;
                                stack[top++] = t->tgt[k];
                            }
                    }
                }
            }
            for (int32_t i = 0; i < ne; i++) {
                int32_t a = ents[i];
                if (!ok[a]) continue; /* a leaf, solo so far */
                int32_t end_a = t->app_to[a] >= 0 ? t->app_to[a] : (int32_t)s;
                for (int32_t j = 0; j < ne && ok[a]; j++)
                    if (j != i && (ends[(size_t)j * words + (size_t)(end_a >> 6)] >> (end_a & 63) & 1)
                        && !exclusive(t, mb, mw, a, ents[j]))
                        ok[a] = 0;
            }
        }
    for (size_t a = 0; a < na; a++) /* (a slide's application: revisits to test, none solo) */
        E->solo[a] = work <= SOLO_WORK && ok[a] && t->app_slide[a] < 0;
    free(ents), free(stack), free(seen), free(reach), free(ends), free(ok), free(mb);
    return 0;
}

/* 1 where an attack walk reads only the tiles the tracking marks (track_app: each move's checks, writes and rays),
   so that its answer holds while those tiles hold the same codes (attack_kept): no move or link reads a condition
   (counts over the board or lines), a link's end-rule lines, a group's captures (a flood) or a link table (the code
   of every tile), and no clean-up runs after each move (its triggers count codes). */
static int ak_proof(const tp_tables *t) {
    if (!t->natt || t->nlnk_cond || t->napp_cond || t->mgrp_off[t->np] != t->mgrp_off[0]) return 0;
    for (int32_t l = 0; l < t->nlinks; l++)
        if (t->lnk_line[l] >= 0 || t->lnk_table[l] >= 0) return 0;
    for (int32_t a = 0; a < t->napps; a++)
        if (t->app_gc[a] >= 0) return 0;
    return 1;
}

tp_engine *tp_new(const tp_tables *t, int32_t cap_keys, int32_t cap_changes, int32_t cap_undo, int32_t cap_depth,
                  int32_t cap_hash, int32_t cap_chains) {
    if (tp_check(t) != 0 || cap_keys < 1 || cap_changes < 1 || cap_undo < 1 || cap_depth < 2 || cap_chains < 1
        || cap_hash < 2 || (cap_hash & (cap_hash - 1)) != 0)
        return NULL;
    tp_engine *E = calloc(1, sizeof *E);
    if (!E) return NULL;
    E->t = *t;
    size_t n = (size_t)t->n, nd = (size_t)t->nd, na = (size_t)t->napps;
    for (size_t a = 0; a < na; a++) {
        int32_t w = t->wr_off[a + 1] - t->wr_off[a];
        if (w > E->maxw) E->maxw = w;
    }
    E->zob = malloc(n * nd * sizeof *E->zob);
    E->forced = calloc(na + 1, 1);
    E->main.codes = malloc(n * sizeof(int32_t));
    E->main.count = malloc(nd * sizeof(int32_t));
    E->scratch.codes = malloc(n * sizeof(int32_t));
    E->scratch.count = malloc(nd * sizeof(int32_t));
    E->words = (t->n + 63) / 64;
    E->main.bits = malloc(nd * (size_t)E->words * sizeof(uint64_t));
    E->scratch.bits = malloc(nd * (size_t)E->words * sizeof(uint64_t));
    E->undo_cap = cap_undo;
    E->undo_tile = malloc((size_t)cap_undo * sizeof(int32_t));
    E->undo_old = malloc((size_t)cap_undo * sizeof(int32_t));
    E->depth_cap = cap_depth;
    E->path_hash = malloc((size_t)cap_depth * sizeof(uint64_t));
    E->path_undo = malloc((size_t)cap_depth * sizeof(int32_t));
    E->path_mid = malloc((size_t)cap_depth);
    E->ctr = malloc((size_t)cap_depth * (size_t)t->nctr * sizeof(int32_t) + sizeof(int32_t));
    E->seq = malloc((size_t)cap_depth * sizeof(int32_t));
    E->nv = malloc(((size_t)E->maxw + 1) * sizeof(int32_t));
    int32_t maxray = 0;
    for (size_t a = 0; a < na; a++) {
        int32_t k = t->ray_tile_off[t->app_ray_off[a + 1]] - t->ray_tile_off[t->app_ray_off[a]];
        if (k > maxray) maxray = k;
    }
    E->capbuf = malloc((2 * (size_t)maxray + 1) * sizeof(int32_t));
    E->cstack = malloc(n * sizeof(int32_t));
    E->gcbuf = malloc(n * sizeof(int32_t));
    E->cseen = calloc(n, sizeof(uint32_t));
    E->key_cap = cap_keys;
    E->keys = malloc((size_t)cap_keys * sizeof(Key));
    E->chg_cap = cap_changes;
    E->chg = malloc(2 * (size_t)cap_changes * sizeof(int32_t));
    E->ht_size = cap_hash;
    E->ht = malloc((size_t)cap_hash * sizeof(int32_t));
    E->ht_gen = calloc((size_t)cap_hash, sizeof(uint32_t));
    E->cnt_hash = malloc((size_t)cap_hash * sizeof(uint64_t));
    E->cnt_ent = malloc(((size_t)t->nent + 1) * sizeof(int32_t));
    E->cnt_upto = malloc(((size_t)t->nent + 1) * sizeof(int32_t));
    E->cnt_find = -1;
    E->cnt_stamp = calloc((size_t)cap_hash, sizeof(uint32_t));
    E->cnt_woff = malloc((size_t)cap_hash * sizeof(int32_t));
    E->cnt_order = malloc((size_t)cap_hash * sizeof(int32_t));
    E->wit_cap = 4 * cap_changes;
    E->cnt_wit = malloc((size_t)E->wit_cap * sizeof(int32_t));
    if (!t->keyed_by_changes && n * n <= SE_MAX) { /* keys told apart by start and end (else by hash) */
        E->se_head = malloc(n * n * sizeof(int32_t));
        E->se_gen = calloc(n * n, sizeof(uint32_t));
        if (!E->se_head || !E->se_gen) {
            tp_free(E);
            return NULL;
        }
    }
    E->tmp = malloc(3 * n * sizeof(int32_t));
    E->ord = malloc((n + (size_t)cap_depth) * sizeof(int32_t));
    E->way_key = malloc((size_t)cap_keys * sizeof(int32_t));
    E->way_off = malloc((size_t)cap_keys * sizeof(int32_t));
    E->way_len = malloc((size_t)cap_keys * sizeof(int32_t));
    E->way_flag = malloc((size_t)cap_keys);
    E->way_most = malloc((size_t)cap_keys * sizeof(int32_t));
    E->way_hash = malloc((size_t)cap_keys * sizeof(uint64_t));
    E->way_seq = malloc((size_t)cap_changes * sizeof(int32_t));
    E->way_ht = malloc((size_t)cap_hash * sizeof(int32_t));
    E->way_ht_gen = calloc((size_t)cap_hash, sizeof(uint32_t));
    E->tstamp = calloc(n, sizeof(uint32_t));
    E->astamp = calloc(na + 1, sizeof(uint32_t));
    E->node_royal = malloc(n * sizeof(int32_t));
    E->mine = malloc(n * sizeof(int32_t));
    E->tbase = malloc(n * sizeof(int32_t));
    E->cm_tile = malloc((size_t)cap_undo * sizeof(int32_t));
    E->cm_code = malloc((size_t)cap_undo * sizeof(int32_t));
    E->cm_tread = calloc(n, sizeof(uint32_t));
    E->cm_cread = calloc(nd, sizeof(uint32_t));
    E->tm = calloc(TM_SIZE, sizeof *E->tm);
    E->tm_bits = calloc((size_t)TM_SIZE * TM_MAXK * TM_WORDS, sizeof(uint64_t));
    E->tm_tread = calloc(n, sizeof(uint32_t));
    E->tm_cread = calloc(nd, sizeof(uint32_t));
    E->at_rbits = calloc((size_t)E->words + 1, sizeof(uint64_t));
    E->at_gstamp = calloc(n, sizeof(uint32_t));
    E->at_gat = malloc(n * sizeof(int32_t));
    E->chains_cap = cap_chains;
    E->chains = malloc((size_t)cap_chains * sizeof(int32_t));
    E->lp_sep = malloc((2 * (size_t)cap_depth + 2) * sizeof(int32_t));
    E->lp_tile = malloc((2 * (size_t)cap_depth + 2) * sizeof(int32_t));
    E->acc_order = malloc((size_t)cap_keys * sizeof(int32_t));
    if (!E->zob || !E->forced || !E->main.codes || !E->main.count || !E->scratch.codes || !E->scratch.count
        || !E->main.bits || !E->scratch.bits
        || !E->undo_tile || !E->undo_old || !E->path_hash || !E->path_undo || !E->path_mid || !E->ctr || !E->seq || !E->nv || !E->keys || !E->chg
        || !E->ht || !E->ht_gen || !E->cnt_hash || !E->cnt_stamp || !E->cnt_woff || !E->cnt_order || !E->cnt_wit || !E->cnt_ent || !E->cnt_upto || !E->tmp || !E->ord || !E->way_key || !E->way_off || !E->way_len || !E->way_flag
        || !E->way_most || !E->way_hash || !E->way_seq || !E->way_ht || !E->way_ht_gen || !E->tstamp || !E->astamp || !E->node_royal || !E->mine || !E->tbase
        || !E->cm_tile || !E->cm_code || !E->cm_tread || !E->cm_cread || !E->tm || !E->tm_bits || !E->tm_tread || !E->tm_cread || !E->at_rbits || !E->at_gstamp
        || !E->at_gat || !E->chains || !E->lp_sep || !E->lp_tile || !E->acc_order || !E->capbuf || !E->cstack || !E->cseen || !E->gcbuf) {
        tp_free(E);
        return NULL;
    }
    int32_t nsets = (t->nphases + 1) * t->np; /* entry rows per player, in the regular play and in each phase */
    E->ent_code_off = calloc((size_t)nsets + 1, sizeof(int32_t));
    E->ent_codes = malloc((size_t)nsets * nd * sizeof(int32_t) + 1);
    E->ent_tiles = calloc((size_t)nsets * (size_t)E->words + 1, sizeof(uint64_t));
    if (!E->ent_code_off || !E->ent_codes || !E->ent_tiles) {
        tp_free(E);
        return NULL;
    }
    for (int32_t p = 0; p < nsets; p++) {
        int32_t k = E->ent_code_off[p];
        for (size_t c = 0; c < nd; c++) {
            int has = 0;
            for (size_t u = 0; u < n && !has; u++) {
                const int32_t *e = t->ent_off + ((size_t)p * n + u) * nd + c;
                has = e[1] > e[0];
            }
            if (has) E->ent_codes[k++] = (int32_t)c;
        }
        E->ent_code_off[p + 1] = k;
        for (size_t u = 0; u < n; u++) {
            const int32_t *e = t->ent_off + ((size_t)p * n + u) * nd;
            if (e[nd] > e[0]) E->ent_tiles[(size_t)p * (size_t)E->words + (u >> 6)] |= 1ULL << (u & 63);
        }
    }
    E->cond_count = calloc((size_t)t->nconds + 1, 1);
    if (!E->cond_count) {
        tp_free(E);
        return NULL;
    }
    for (int32_t c = 0; c < t->nconds; c++)
        E->cond_count[c] = t->cond_kind[c] == COND_BOARD && !t->cond_around[c] && !t->cond_here[c] && !t->cond_line[c];
    E->cond_free = calloc((size_t)t->nconds + 1, 1);
    E->cf_stamp = calloc((size_t)t->nconds + 1, sizeof(uint32_t));
    E->cf_val = calloc((size_t)t->nconds + 1, 1);
    if (!E->cond_free || !E->cf_stamp || !E->cf_val) {
        tp_free(E);
        return NULL;
    }
    for (int32_t c = 0; c < t->nconds; c++) E->cond_free[c] = (uint8_t)cond_tile_free(t, c);
    E->cond_rbits = calloc((size_t)t->nconds * (size_t)E->words + 1, sizeof(uint64_t));
    E->cond_region = calloc((size_t)t->nconds + 1, 1);
    if (!E->cond_rbits || !E->cond_region) {
        tp_free(E);
        return NULL;
    }
    for (int32_t c = 0; c < t->nconds; c++) { /* the regions of plain region counts, as tile sets (ended) */
        E->cond_region[c] = t->cond_kind[c] == COND_REGION && !t->cond_around[c] && !t->cond_here[c] && !t->cond_line[c];
        for (int32_t k = t->cond_tile_off[c]; E->cond_region[c] && k < t->cond_tile_off[c + 1]; k++)
            E->cond_rbits[(size_t)c * (size_t)E->words + (size_t)t->cond_tiles[k] / 64] |= (uint64_t)1 << (t->cond_tiles[k] % 64);
    }
    E->ec_off = calloc((size_t)t->nends + 1, sizeof(int32_t));
    E->ec_rows = malloc(3 * (size_t)t->nends * (size_t)t->np * sizeof(int32_t) + 1);
    E->ec_bits = calloc((size_t)t->nends * (size_t)t->np * (size_t)E->words + 1, sizeof(uint64_t));
    if (!E->ec_off || !E->ec_rows || !E->ec_bits) {
        tp_free(E);
        return NULL;
    }
    for (int32_t e = 0, r = 0; e < t->nends; e++) { /* the pairs of count end rules that apply, decoded once (ended) */
        for (int32_t q = 0; t->end_kind[e] == END_COUNT && q < t->np; q++) {
            int32_t i = e * t->np + q, k0 = t->end_cond_off[i], k1 = t->end_cond_off[i + 1];
            if (!t->end_pmask[i]) continue;
            int32_t *row = E->ec_rows + 3 * (size_t)r;
            uint64_t *bits = E->ec_bits + (size_t)r * (size_t)E->words;
            row[0] = k0;
            row[1] = k1;
            row[2] = t->end_check[e] < 0 && !t->end_after[e] ? r : -1;
            for (int32_t k = k0; row[2] >= 0 && k < k1; k++) {
                int32_t c = t->end_conds[k];
                if (E->cond_count[c] || !E->cond_region[c]) row[2] = -1;
                for (size_t w = 0; w < (size_t)E->words; w++) bits[w] |= E->cond_rbits[(size_t)c * (size_t)E->words + w];
            }
            r++;
        }
        E->ec_off[e + 1] = r;
    }
    E->roy_off = calloc((size_t)t->np + 1, sizeof(int32_t));
    E->roy_codes = malloc((size_t)t->np * nd * sizeof(int32_t) + 1);
    if (!E->roy_off || !E->roy_codes) {
        tp_free(E);
        return NULL;
    }
    for (int32_t p = 0; p < t->np; p++) {
        int32_t k = E->roy_off[p];
        for (size_t c = 0; t->has_royal && c < nd; c++)
            if (t->royal_mine[(size_t)p * nd + c]) E->roy_codes[k++] = (int32_t)c;
        E->roy_off[p + 1] = k;
    }
    E->pk_chk = malloc(2 * (size_t)t->nchk * sizeof(int32_t) + 1);
    int32_t *pop = calloc((size_t)t->nmasks + 1, sizeof(int32_t));
    if (!E->pk_chk || !pop) {
        free(pop);
        tp_free(E);
        return NULL;
    }
    for (int32_t m = 0; m < t->nmasks; m++)
        for (size_t c = 0; c < nd; c++) pop[m] += t->masks[(size_t)m * nd + c];
    for (size_t a = 0; a < na; a++) { /* insertion sort by (own tile, codes the mask accepts) */
        int32_t k0 = t->chk_off[a], k1 = t->chk_off[a + 1];
        for (int32_t k = k0; k < k1; k++) {
            int32_t u = t->chk_tile[k], m = t->chk_mask[k];
            int32_t rank = (u == t->app_tile[a]) * (int32_t)(nd + 1) + pop[m], i = k;
            for (; i > k0; i--) {
                int32_t pu = E->pk_chk[2 * (i - 1)], pm = E->pk_chk[2 * (i - 1) + 1] / (int32_t)nd;
                int32_t prank = (pu == t->app_tile[a]) * (int32_t)(nd + 1) + pop[pm];
                if (prank <= rank) break;
                E->pk_chk[2 * i] = pu;
                E->pk_chk[2 * i + 1] = E->pk_chk[2 * (i - 1) + 1];
            }
            E->pk_chk[2 * i] = u;
            E->pk_chk[2 * i + 1] = m * (int32_t)nd;
        }
    }
    free(pop);
    E->es_off = malloc(((size_t)t->nent + 1) * sizeof(int32_t));
    size_t es_len = 0;
    for (int32_t i = 0; i < t->nent; i++) es_len += 3 + 2 * (size_t)(t->chk_off[t->ent_app[i] + 1] - t->chk_off[t->ent_app[i]]);
    E->es = malloc((es_len + 1) * sizeof(int32_t));
    if (!E->es_off || !E->es || es_len > INT32_MAX) {
        tp_free(E);
        return NULL;
    }
    es_len = 0;
    for (int32_t i = 0; i < t->nent; i++) {
        int32_t a = t->ent_app[i], k0 = t->chk_off[a], k1 = t->chk_off[a + 1];
        E->es_off[i] = (int32_t)es_len;
        E->es[es_len++] = a;
        E->es[es_len++] = 2 * (k1 - k0);
        E->es[es_len++] = t->app_ray_off[a + 1] > t->app_ray_off[a] || t->app_gc[a] >= 0
                          || t->app_cond_off[a + 1] > t->app_cond_off[a];
        memcpy(E->es + es_len, E->pk_chk + 2 * (size_t)k0, 2 * (size_t)(k1 - k0) * sizeof(int32_t));
        es_len += 2 * (size_t)(k1 - k0);
    }
    E->es_off[t->nent] = (int32_t)es_len;
    E->leaf = calloc(na + 1, 1);
    E->cn = malloc(3 * n * sizeof(int32_t) + 1);
    E->grp_bits = calloc((size_t)t->ngroups * (size_t)E->words + 1, sizeof(uint64_t));
    if (!E->grp_bits) {
        tp_free(E);
        return NULL;
    }
    for (int32_t g = 0; g < t->ngroups; g++) {
        const int32_t *row = t->grp_tile_off + (size_t)g * (n + 1);
        for (size_t u = 0; t->grp_indexed[g] && u < n; u++)
            if (row[u + 1] > row[u]) E->grp_bits[(size_t)g * (size_t)E->words + (u >> 6)] |= 1ULL << (u & 63);
    }
    E->grp_few = calloc((size_t)t->ngroups + 1, 1);
    E->grp_tcode = calloc((size_t)t->ngroups * (size_t)t->nd + 1, 1);
    if (!E->grp_few || !E->grp_tcode) {
        tp_free(E);
        return NULL;
    }
    for (int32_t g = 0; g < t->ngroups; g++) { /* trigger_few: the group's tiles, where fewer than its trigger codes */
        int32_t tiles = 0;
        for (size_t w = 0; w < (size_t)E->words; w++)
            tiles += __builtin_popcountll(E->grp_bits[(size_t)g * (size_t)E->words + w]);
        for (int32_t k = t->grp_trig_off[g]; k < t->grp_trig_off[g + 1]; k++)
            E->grp_tcode[(size_t)g * (size_t)t->nd + (size_t)t->grp_trig[k]] = 1;
        E->grp_few[g] = t->grp_indexed[g] && tiles <= t->grp_trig_off[g + 1] - t->grp_trig_off[g];
    }
    if (!E->leaf || !E->cn) {
        tp_free(E);
        return NULL;
    }
    size_t arows = (size_t)t->np * n, words = (size_t)E->words;
    if (t->natt && arows * n <= ATT_MAX) { /* the attack index as bit sets (attacked) */
        E->att_bits = calloc(arows * words + 1, sizeof(uint64_t));
        E->att_pos = malloc(arows * n * sizeof(int32_t) + 1);
        if (arows * nd * words <= ATT_MAX / 4) {
            E->att_acc = calloc(arows * nd * words + 1, sizeof(uint64_t));
            E->at_rel = calloc(nd * words + 1, sizeof(uint64_t));
            E->at_acc = E->at_rel;
        }
    }
    E->att_code_off = calloc((size_t)t->np + 1, sizeof(int32_t));
    E->att_codes = malloc((size_t)t->np * nd * sizeof(int32_t) + 1);
    uint8_t *acc = calloc(nd + 1, 1);
    if ((E->att_bits == NULL) != (E->att_pos == NULL) || (E->att_acc == NULL) != (E->at_rel == NULL) || !E->att_code_off
        || !E->att_codes || !acc) {
        free(acc);
        tp_free(E);
        return NULL;
    }
    for (int32_t q = 0; E->att_bits && q < t->np; q++) {
        memset(acc, 0, nd);
        for (size_t row = (size_t)q * n; row < (size_t)(q + 1) * n; row++) {
            for (size_t u = 0; u < n; u++) E->att_pos[row * n + u] = -1;
            for (int32_t gi = t->att_off[row]; gi < t->att_off[row + 1]; gi++) {
                int32_t u = t->att_tile[gi];
                E->att_bits[row * words + (size_t)(u >> 6)] |= 1ULL << (u & 63);
                E->att_pos[row * n + (size_t)u] = gi;
                for (size_t c = 0; c < nd; c++) acc[c] |= t->masks[(size_t)t->att_mask[gi] * nd + c];
                for (size_t c = 0; E->att_acc && c < nd; c++)
                    if (t->masks[(size_t)t->att_mask[gi] * nd + c])
                        E->att_acc[(row * nd + c) * words + (size_t)(u >> 6)] |= 1ULL << (u & 63);
            }
            for (int32_t p = 0; E->att_acc && p < t->np; p++) /* a royal piece of the defender put anywhere */
                for (size_t c = 0; p != q && c < nd; c++)
                    if (t->royal_mine[(size_t)p * nd + c])
                        for (size_t w = 0; w < words; w++) E->att_acc[(row * nd + c) * words + w] = ~0ULL;
        }
        int32_t k = E->att_code_off[q];
        for (size_t c = 0; c < nd; c++)
            if (acc[c]) E->att_codes[k++] = (int32_t)c;
        E->att_code_off[q + 1] = k;
    }
    free(acc);
    if (ak_proof(t)) { /* the attack entries' kept walks (attack_kept) */
        size_t slots = (size_t)t->natt * AC_WAYS;
        E->ak_code = malloc(slots * sizeof(int32_t) + 1);
        E->ak_tile = malloc(slots * AC_READS * sizeof(int32_t) + 1);
        E->ak_val = malloc(slots * AC_READS * sizeof(int32_t) + 1);
        E->ak_n = calloc(slots + 1, 1);
        E->ak_hit = calloc(slots + 1, 1);
        E->ak_last = calloc((size_t)t->natt + 1, 1);
        E->ak_save = calloc(words + 1, sizeof(uint64_t));
        if (!E->ak_code || !E->ak_tile || !E->ak_val || !E->ak_n || !E->ak_hit || !E->ak_last || !E->ak_save) {
            tp_free(E);
            return NULL;
        }
        for (size_t s = 0; s < slots; s++) E->ak_code[s] = -1;
    }
    for (size_t a = 0; a < na; a++) {
        int ok = t->lnk_off[a + 1] == t->lnk_off[a] && t->safe_off[a + 1] == t->safe_off[a]
                 && t->app_ray_off[a + 1] == t->app_ray_off[a] && t->app_gc[a] < 0 /* captures write more */
                 && t->app_final[a] && t->mgrp_off[t->np] == t->mgrp_off[0] /* clean-ups after each move */;
        for (int32_t i = t->wr_off[a]; ok && i < t->wr_off[a + 1]; i++)
            for (int32_t j = t->wr_off[a]; j < i; j++) ok &= t->wr_tile[j] != t->wr_tile[i];
        E->leaf[a] = (uint8_t)ok;
    }
    E->cond_leaf = calloc(na + 1, 1);
    if (!E->cond_leaf) {
        tp_free(E);
        return NULL;
    }
    for (size_t a = 0; a < na && !t->flies_over && !t->steps && t->grp_off[t->np] == t->grp_off[0]; a++) {
        int ok = t->lnk_off[a + 1] > t->lnk_off[a] && t->safe_off[a + 1] == t->safe_off[a]
                 && t->app_ray_off[a + 1] == t->app_ray_off[a] && t->app_gc[a] < 0 && t->app_final[a]
                 && !t->app_block[a] && t->app_slide[a] < 0 && t->mgrp_off[t->np] == t->mgrp_off[0];
        for (int32_t l = t->lnk_off[a]; ok && l < t->lnk_off[a + 1]; l++)
            ok = t->lnk_cond_off[l + 1] > t->lnk_cond_off[l]; /* (a line stops few: pentago's turns follow) */
        E->cond_leaf[a] = (uint8_t)ok;
    }
    E->solo = calloc(na + 1, 1); /* filled by the first perft (solo_apps) */
    E->once = calloc((size_t)t->nlinks + 1, 1);
    E->paired = calloc((size_t)t->nlinks + 1, 1);
    E->pair_code = malloc(((size_t)t->nlinks + 1) * sizeof *E->pair_code);
    E->pair_write = malloc(((size_t)t->nlinks + 1) * sizeof *E->pair_write);
    if (!E->solo || !E->once || !E->paired || !E->pair_code || !E->pair_write) {
        tp_free(E);
        return NULL;
    }
    once_links(E);
    for (int32_t l = 0; l <= t->nlinks; l++) E->pair_code[l] = E->pair_write[l] = -1;
    if (paired_links(E) < 0) {
        tp_free(E);
        return NULL;
    }
    if (apart_slides(E) < 0) {
        tp_free(E);
        return NULL;
    }
    if (budget_tables(E) < 0) {
        tp_free(E);
        return NULL;
    }
    E->lnk_hl = malloc((size_t)t->nlinks * sizeof(int32_t) + 1);
    if (!E->lnk_hl) {
        tp_free(E);
        return NULL;
    }
    for (int32_t l = 0; l < t->nlinks; l++) { /* link_open's one condition on lines through the tile at hand */
        int32_t k0 = t->lnk_cond_off[l], c = t->lnk_cond_off[l + 1] == k0 + 1 ? t->lnk_cond[k0] : -1;
        E->lnk_hl[l] = c >= 0 && t->cond_here[c] && t->cond_line[c] && t->cond_kind[c] == COND_BOARD && !t->cond_around[c]
                       ? c : -1;
    }
    E->lt_off = calloc((size_t)t->nends * n + 1, sizeof(int32_t));
    E->lt_line = malloc((size_t)t->nline_tiles * sizeof(int32_t) + 1);
    if (!E->lt_off || !E->lt_line) {
        tp_free(E);
        return NULL;
    }
    for (int32_t e = 0; e < t->nends; e++) /* counts per row, then offsets, then the lines */
        for (int32_t i = t->end_line_off[e]; i < t->end_line_off[e + 1]; i++)
            if (t->line_tiles[i] >= 0) /* an exact line's tile beside it, off the board */
                E->lt_off[(size_t)e * n + (size_t)t->line_tiles[i] + 1]++;
    for (size_t i = 0; i < (size_t)t->nends * n; i++) E->lt_off[i + 1] += E->lt_off[i];
    {
        int32_t *fill = calloc((size_t)t->nends * n + 1, sizeof(int32_t));
        if (!fill) {
            tp_free(E);
            return NULL;
        }
        for (int32_t e = 0; e < t->nends; e++) {
            int32_t k = t->end_k[e] + (t->end_exact[e] ? 2 : 0); /* an exact line: its tiles and the two beside */
            for (int32_t l = t->end_line_off[e]; k > 0 && l < t->end_line_off[e + 1]; l += k)
                for (int32_t i = 0; i < k; i++) {
                    if (t->line_tiles[l + i] < 0) continue;
                    size_t row = (size_t)e * n + (size_t)t->line_tiles[l + i];
                    E->lt_line[E->lt_off[row] + fill[row]++] = l;
                }
        }
        free(fill);
    }
    uint64_t seed = 0x7461706F6C6F6779ULL; /* fixed: runs are reproducible */
    for (size_t i = 0; i < n * nd; i++) E->zob[i] = splitmix(&seed);
    if (quick_tables(E) < 0) {
        tp_free(E);
        return NULL;
    }
    for (size_t a = 0; a < na; a++)
        for (int32_t l = t->lnk_off[a]; l < t->lnk_off[a + 1]; l++) E->forced[a] |= t->lnk_forced[l];
    return E;
}

void tp_free(tp_engine *e) {
    if (!e) return;
    free(e->ak_code), free(e->ak_tile), free(e->ak_val), free(e->ak_n), free(e->ak_hit), free(e->ak_last), free(e->ak_save);
    free(e->zob);
    free(e->forced);
    free(e->pair_stamp);
    free(e->hop_stamp);
    free(e->hop_stk);
    free(e->hop_fu), free(e->hop_fu_off);
    free(e->pair_ord);
    free(e->pair_cw);
    free(e->raw_w);
    free(e->pair_tcnt);
    free(e->trig_off), free(e->trig_ent), free(e->trig_at), free(e->trig_code), free(e->trig_code_off);
    free(e->trig_codes);
    free(e->main.codes);
    free(e->main.count);
    free(e->scratch.codes);
    free(e->scratch.count);
    free(e->main.bits);
    free(e->scratch.bits);
    free(e->undo_tile);
    free(e->undo_old);
    free(e->path_hash);
    free(e->path_undo);
    free(e->path_mid);
    free(e->ctr);
    free(e->seq);
    free(e->nv);
    free(e->capbuf);
    free(e->cstack);
    free(e->gcbuf);
    free(e->cseen);
    free(e->keys);
    free(e->chg);
    free(e->ht);
    free(e->ht_gen);
    free(e->cnt_hash);
    free(e->cnt_stamp);
    free(e->cnt_woff);
    free(e->cnt_order);
    free(e->cnt_wit);
    free(e->grp_bits);
    free(e->grp_few);
    free(e->grp_tcode);
    free(e->cnt_ent);
    free(e->cnt_upto);
    free(e->se_head);
    free(e->se_gen);
    free(e->tmp);
    free(e->ord);
    free(e->way_key);
    free(e->way_off);
    free(e->way_len);
    free(e->way_flag);
    free(e->way_most);
    free(e->way_hash);
    free(e->way_seq);
    free(e->way_ht);
    free(e->way_ht_gen);
    free(e->tstamp);
    free(e->astamp);
    free(e->node_royal);
    free(e->mine);
    free(e->tbase);
    free(e->cm_tile);
    free(e->cm_code);
    free(e->cm_tread);
    free(e->cm_cread);
    free(e->tm);
    free(e->tm_bits);
    free(e->tm_tread);
    free(e->tm_cread);
    free(e->at_rbits);
    free(e->at_rel);
    free(e->att_acc);
    free(e->at_gstamp);
    free(e->at_gat);
    free(e->att_bits);
    free(e->att_pos);
    free(e->att_code_off);
    free(e->att_codes);
    free(e->chains);
    free(e->lp_sep);
    free(e->lp_tile);
    free(e->acc_order);
    free(e->ent_code_off);
    free(e->ent_codes);
    free(e->ent_tiles);
    free(e->roy_off);
    free(e->roy_codes);
    free(e->cond_count);
    free(e->cond_free);
    free(e->cf_stamp);
    free(e->cf_val);
    free(e->lh_full);
    free(e->lh_ok);
    free(e->pk_chk);
    free(e->es);
    free(e->es_off);
    free(e->leaf);
    free(e->solo);
    free(e->paired);
    free(e->pair_code);
    free(e->pair_write);
    free(e->pair_bits);
    free(e->plain_set);
    free(e->plain_mask);
    free(e->plain_off);
    free(e->plain_tiles);
    free(e->plain_code);
    free(e->plain_app);
    free(e->plain_new);
    free(e->shut_set);
    free(e->shut_off);
    free(e->shut_code);
    free(e->shut_new);
    free(e->shut_app);
    free(e->shut_mask);
    free(e->shut_cond_off);
    free(e->shut_cond);
    free(e->shut_line_off);
    free(e->shut_line);
    free(e->shut_tiles);
    free(e->shut_lmask);
    free(e->sstep);
    free(e->sstep_set);
    free(e->sstep_cond_off);
    free(e->sstep_cond);
    free(e->sstep_near);
    free(e->cfol);
    free(e->lnk_hl);
    free(e->qk), free(e->qk_tiles), free(e->qk_wr), free(e->qk_delta), free(e->qk_stamp), free(e->qk_same);
    free(e->qk_nv), free(e->qk_free);
    free(e->cond_leaf);
    free(e->once);
    free(e->apart);
    free(e->reach);
    free(e->apart_fa);
    free(e->apart_fc);
    free(e->ac_stamp);
    free(e->ac_first);
    free(e->ac_num);
    free(e->ac_reset);
    free(e->ac_coff);
    free(e->ac_nc);
    free(e->ac_hash);
    free(e->ac_chg);
    free(e->meet_ok);
    free(e->cond_rbits);
    free(e->cond_region);
    free(e->ec_off);
    free(e->ec_rows);
    free(e->ec_bits);
    free(e->bl_off);
    free(e->bl_app);
    free(e->bl_any);
    free(e->cn);
    free(e->lt_off);
    free(e->lt_line);
    free(e);
}

/* Loads a position (dense codes) and empties every stack; TP_ERR_CODE for a code out of range. */
static int start(tp_engine *E, const int32_t *codes, int32_t player, int32_t chains, const int32_t *counters) {
    if (player < 0 || player >= TABLES(E)->np) return TP_ERR_ARG;
    E->ctr_top = 0; /* the position's counters (NULL: all 0) */
    for (int32_t i = 0; i < TABLES(E)->nctr; i++) E->ctr[i] = counters ? counters[i] : 0;
    for (int32_t u = 0; u < TABLES(E)->n; u++)
        if (codes[u] < 0 || codes[u] >= TABLES(E)->nd) return TP_ERR_CODE;
    memcpy(E->main.codes, codes, (size_t)TABLES(E)->n * sizeof *codes);
    recount(E, &E->main);
    E->undo_top = E->path_top = E->seq_top = 0;
    E->nkeys = E->nchg = 0;
    E->chains_len = E->nacc = 0;
    E->chains_mode = chains;
    /* set again by the count that uses them (a call that failed may have left them) */
    E->pair_on = E->pair_any = E->hop_fast = E->hop_keys = 0;
    return 0;
}

/* How many links a count's last ply counts the follow-ups of where they fit (E->paired, paired_links): for
   tests. */
int32_t tp_paired_links(const tp_engine *e) {
    int32_t k = 0;
    for (int32_t l = 0; l < TABLES(e)->nlinks; l++) k += e->paired[l] > 0;
    return k;
}

/* How many applications a count by hash may count from their writes' hash delta (E->qk, quick_tables): for tests. */
int32_t tp_quick_follow_ups(const tp_engine *e) {
    int32_t k = 0;
    for (int32_t a = 0; a < TABLES(e)->napps; a++) k += e->qk[a] >= 0;
    return k;
}

/* How many links the walk follows in one order of two moves (E->once, once_links): for tests. */
int32_t tp_once_links(const tp_engine *e) {
    int32_t k = 0;
    for (int32_t l = 0; l < TABLES(e)->nlinks; l++) k += e->once[l];
    return k;
}

/* How many links the walk follows leaving out second slides that the other order gives (E->apart, apart_slides): for
   tests. */
int32_t tp_apart_links(const tp_engine *e) {
    int32_t k = 0;
    for (int32_t l = 0; e->apart && l < TABLES(e)->nlinks; l++) k += e->apart[l];
    return k;
}

/* How many chain ends of second slides apart from the first were counted from the node's records (apart_second)
   since the engine was made: for tests. */
int64_t tp_apart_replays(const tp_engine *e) {
    return e->ac_used;
}

/* How many follow-ups the link tables offer a move with `left` steps left (budget_rows; -1 where the rule set has no
   step budget): for tests. */
int32_t tp_budget_follow_ups(const tp_engine *e, int32_t left) {
    const tp_tables *t = TABLES(e);
    if (!e->bl_off || left < 0 || left > t->steps) return -1;
    size_t rows = (size_t)t->nltab * (size_t)t->n * (size_t)t->nd;
    return e->bl_off[(size_t)left * rows + rows] - e->bl_off[(size_t)left * rows];
}

/* How many applications hold E->solo's mark `mark` (SOLO_LEAF, SOLO_PLAIN, SOLO_ALONE; filled by the first perft):
   for tests. */
int32_t tp_solos(const tp_engine *e, int32_t mark) {
    int32_t k = 0;
    for (int32_t a = 0; a < TABLES(e)->napps; a++) k += e->solo[a] == mark;
    return k;
}

/* How many entry sets count their shut cells by tile sets (shut_cells), read after a first perft. */
int32_t tp_shut_sets(const tp_engine *e) {
    int32_t k = 0, nsets = (TABLES(e)->nphases + 1) * TABLES(e)->np;
    for (int32_t s = 0; e->shut_set && s < nsets; s++) k += e->shut_set[s];
    return k;
}

/* 1 when application c, a follow-up of an entry writing code v on its tile, cannot leave a chain of the two with one
   change: it has no links and changes only its own tile, every code its checks admit there changed and none v (so
   it cannot fit the entry's tile after the entry, and a chain of the two changes two tiles). */
static int follow_cell(const tp_tables *t, int32_t c, int32_t v) {
    int32_t u = t->app_tile[c];
    size_t nd = (size_t)t->nd;
    if (t->lnk_off[c + 1] > t->lnk_off[c] || t->wr_off[c + 1] - t->wr_off[c] != 1 || t->wr_tile[t->wr_off[c]] != u
        || t->wr_src[t->wr_off[c]] != u || t->app_ray_off[c + 1] > t->app_ray_off[c] || t->app_gc[c] >= 0
        || t->safe_off[c + 1] > t->safe_off[c] || t->app_slide[c] >= 0 || t->app_block[c] || t->chk_off[c + 1] == t->chk_off[c])
        return 0;
    for (int32_t k = t->chk_off[c]; k < t->chk_off[c + 1]; k++)
        if (t->chk_tile[k] != u) return 0;
    for (size_t x = 0; x < nd; x++) {
        int ok = 1;
        for (int32_t k = t->chk_off[c]; ok && k < t->chk_off[c + 1]; k++) ok = t->masks[(size_t)t->chk_mask[k] * nd + x];
        if (ok && ((int32_t)x == v || t->maps[(size_t)t->wr_map[t->wr_off[c]] * nd + x] == (int32_t)x)) return 0;
    }
    return 1;
}

/* 1 when entry b is a single cell (one_cell) every chain of which is b alone or b and one follow-up_cell: b alone is
   the only chain of one change it starts (a leaf b: its only chain). */
static int alone_cell(const tp_tables *t, const uint8_t *leaf, int32_t b) {
    int32_t v = -1;
    if (one_cell(t, b, &v) < 0) return 0;
    if (leaf[b]) return 1;
    if (t->grp_off[t->np] > 0 || t->mgrp_off[t->np] > 0) return 0; /* clean-ups may write more */
    size_t nn = (size_t)t->n * (size_t)t->nd;
    for (int32_t l = t->lnk_off[b]; l < t->lnk_off[b + 1]; l++) {
        int32_t tb = t->lnk_table[l];
        for (int32_t k = t->tgt_off[l]; k < t->tgt_off[l + 1]; k++)
            if (!follow_cell(t, t->tgt[k], v)) return 0;
        for (int32_t k = tb < 0 ? 0 : t->ltab_off[(size_t)tb * nn]; tb >= 0 && k < t->ltab_off[(size_t)(tb + 1) * nn]; k++)
            if (!follow_cell(t, t->ltab_app[k], v)) return 0;
    }
    return 1;
}

/* 1 when link l has a follow-up on a tile before s. */
static int before(const tp_tables *t, int32_t l, int32_t s) {
    int32_t tb = t->lnk_table[l];
    for (int32_t k = t->tgt_off[l]; tb < 0 && k < t->tgt_off[l + 1]; k++)
        if (t->app_tile[t->tgt[k]] < s) return 1;
    size_t nd = (size_t)t->nd, row = (size_t)tb * (size_t)t->n * nd;
    return tb >= 0 && t->ltab_off[row + (size_t)s * nd] > t->ltab_off[row];
}

/* E->pair_code and pair_bits for paired link l where every follow-up is a single cell (one_cell)
   reading one code, one a tile (each fits where its tile holds that code), and pair_write where they write one code;
   < 0 out of memory. */
static int pair_bits(tp_engine *E, int32_t l) {
    const tp_tables *t = TABLES(E);
    size_t nn = (size_t)t->n * (size_t)t->nd, words = (size_t)E->words;
    int32_t tb = t->lnk_table[l], x = -1, wv = -2, k0 = tb < 0 ? t->tgt_off[l] : t->ltab_off[(size_t)tb * nn];
    int32_t k1 = tb < 0 ? t->tgt_off[l + 1] : t->ltab_off[(size_t)(tb + 1) * nn];
    const int32_t *apps = tb < 0 ? t->tgt : t->ltab_app;
    int32_t *at = malloc(((size_t)t->n + 1) * sizeof *at); /* the follow-up on each tile, -1 none */
    if (!at) return -1;
    for (int32_t u = 0; u < t->n; u++) at[u] = -1;
    int ok = k1 > k0;
    for (int32_t k = k0; ok && k < k1; k++) {
        int32_t y = apps[k], v = -1, c = one_cell(t, y, &v), u = t->app_tile[y];
        ok = c >= 0 && (x < 0 || c == x) && (at[u] < 0 || at[u] == y);
        x = c;
        wv = wv == -2 || wv == v ? v : -1;
        at[u] = y;
    }
    if (ok && !E->pair_bits) {
        E->pair_bits = calloc((size_t)t->nlinks * words + 1, sizeof *E->pair_bits);
        if (!E->pair_bits) ok = -1;
    }
    if (ok > 0) {
        E->pair_code[l] = x;
        E->pair_write[l] = wv;
        for (int32_t u = 0; u < t->n; u++)
            if (at[u] >= 0) E->pair_bits[(size_t)l * words + (size_t)(u >> 6)] |= 1ULL << (u & 63);
    }
    free(at);
    return ok < 0 ? -1 : 0;
}

/* E->paired: the links whose follow-ups a count's last ply counts where they fit (step; made and taken back where it
   makes its leaves, paired_leaf): the link is its entry's only one, each follow-up on its row's tile (a table's),
   without conditions and ending the chain (final, no links), no two of a table's row writing one code there, no two of
   a list on one tile; in every entry set holding the entry, no royal rule, clean-ups, counters, step budget or flying
   slides, every entry a single cell whose chains are it alone or it and a follow-up cell (alone_cell: the follow-up
   cannot fit the entry's tile after it), every entry's link once (once_links) or with no follow-up before its tile, and
   no entry with links a twin of another of its row (one code read, the same written).  Then each chain walked, its
   follow-up on a tile after the entry's, changes two tiles, and another chain of the same changes starts on the same
   (least) tile with the same entry and follow-up: none, so each is a turn of its own.  Cost: one pass over the entry
   sets and the entries' follow-ups. */
static int paired_links(tp_engine *E) {
    const tp_tables *t = TABLES(E);
    size_t n = (size_t)t->n, nd = (size_t)t->nd, nn = n * nd;
    int32_t nsets = (t->nphases + 1) * t->np;
    if (!t->keyed_by_changes || t->has_royal || t->nctr || t->steps || t->flies_over || t->grp_off[t->np] > t->grp_off[0]
        || t->mgrp_off[t->np] > t->mgrp_off[0])
        return 0;
    uint8_t *state = calloc((size_t)t->napps + 1, 1); /* 1 an entry of some set, 3 of a set that fails */
    if (!state) return -1;
    for (int32_t set = 0; set < nsets; set++) {
        const int32_t *e0 = t->ent_off + (size_t)set * nn;
        int ok = 1;
        for (int32_t i = e0[0]; ok && i < e0[nn]; i++) {
            int32_t a = t->ent_app[i];
            ok = alone_cell(t, E->leaf, a);
            for (int32_t l = t->lnk_off[a]; ok && l < t->lnk_off[a + 1]; l++) ok = E->once[l] || !before(t, l, t->app_tile[a]);
        }
        for (size_t r = 0; ok && r < nn; r++)
            for (int32_t i = e0[r]; ok && i < e0[r + 1]; i++) {
                int32_t a = t->ent_app[i], va = -1, xa = one_cell(t, a, &va);
                for (int32_t j = e0[r]; ok && j < e0[r + 1]; j++) {
                    int32_t vb = -1;
                    ok = j == i || t->lnk_off[a + 1] == t->lnk_off[a] || one_cell(t, t->ent_app[j], &vb) != xa
                         || vb != va;
                }
            }
        for (int32_t i = e0[0]; i < e0[nn]; i++) state[t->ent_app[i]] |= ok ? 1 : 3;
    }
    for (int32_t a = 0; a < t->napps; a++) {
        int32_t l = t->lnk_off[a], tb = t->lnk_table[l];
        if (state[a] != 1 || t->lnk_off[a + 1] != l + 1) continue;
        int ok = 1;
        for (int32_t k = t->tgt_off[l]; ok && tb < 0 && k < t->tgt_off[l + 1]; k++) {
            int32_t x = t->tgt[k];
            ok = t->app_final[x] && t->lnk_off[x + 1] == t->lnk_off[x] && t->app_cond_off[x + 1] == t->app_cond_off[x];
            for (int32_t j = t->tgt_off[l]; ok && j < k; j++) ok = t->app_tile[t->tgt[j]] != t->app_tile[x];
        }
        for (size_t r = 0; ok && tb >= 0 && r < nn; r++) {
            const int32_t *row = t->ltab_off + (size_t)tb * nn + r;
            for (int32_t i = row[0]; ok && i < row[1]; i++) {
                int32_t x = t->ltab_app[i];
                ok = t->app_final[x] && (size_t)t->app_tile[x] == r / nd && t->lnk_off[x + 1] == t->lnk_off[x]
                     && t->app_cond_off[x + 1] == t->app_cond_off[x];
                for (int32_t j = row[0]; ok && j < i; j++)
                    ok = t->maps[(size_t)t->wr_map[t->wr_off[x]] * nd + r % nd]
                         != t->maps[(size_t)t->wr_map[t->wr_off[t->ltab_app[j]]] * nd + r % nd];
            }
        }
        E->paired[l] = (uint8_t)ok;
        if (ok && pair_bits(E, l) < 0) {
            free(state);
            return -1;
        }
    }
    free(state);
    return 0;
}

/* E->solo where keys are by changes alone (solo_apps reads start and end): a single cell entry (one_cell) whose
   chains are it alone or it and one follow-up cell (alone_cell) is solo where, in every entry set it starts a turn
   in, every entry is such a cell (so a chain of one change is an entry alone, its change on the entry's tile) and
   no other entry at its tile reads and writes the codes it does (two such moves are one turn): breakthru's set-up
   (leaves: SOLO_LEAF), the mill game's placement (a man, and a removal where it closes a mill: SOLO_ALONE, counted
   where its links are closed).  Cost: one pass over the entry rows and the follow-ups of each entry. */
static void solo_by_changes(tp_engine *E) {
    const tp_tables *t = TABLES(E);
    size_t n = (size_t)t->n, nd = (size_t)t->nd;
    int32_t nsets = (t->nphases + 1) * t->np;
    for (int32_t a = 0; a < t->napps; a++)
        E->solo[a] = t->app_slide[a] >= 0 ? 0 : E->leaf[a] ? SOLO_LEAF : E->cond_leaf[a] ? SOLO_ALONE : 0;
    for (int32_t set = 0; set < nsets; set++) {
        const int32_t *e0 = t->ent_off + (size_t)set * n * nd;
        int simple = 1;
        for (int32_t i = e0[0]; simple && i < e0[n * nd]; i++) simple = alone_cell(t, E->leaf, t->ent_app[i]);
        for (size_t u = 0; u < n; u++)
            for (size_t c = 0; c < nd; c++) {
                const int32_t *row = e0 + u * nd + c;
                for (int32_t i = row[0]; i < row[1]; i++) {
                    int32_t a = t->ent_app[i], va = -1, xa = one_cell(t, a, &va);
                    for (int32_t j = row[0]; simple && j < row[1]; j++) {
                        int32_t vb = -1;
                        if (j != i && one_cell(t, t->ent_app[j], &vb) == xa && vb == va) E->solo[a] = 0;
                    }
                    if (!simple) E->solo[a] = 0;
                }
            }
    }
}

/* 1 when condition c counts the same wherever its move stands (no tile at hand, lines or neighbours). */
static int cond_fixed(const tp_tables *t, int32_t c) {
    if (t->cond_kind[c] == COND_ANY) {
        for (int32_t k = t->cond_any_off[c]; k < t->cond_any_off[c + 1]; k++)
            if (!cond_fixed(t, t->cond_any[k])) return 0;
        return 1;
    }
    return !t->cond_here[c] && !t->cond_line[c] && !t->cond_around[c] && t->cond_lset[c] < 0;
}

/* 1 when the clean-ups after each move read tiles alone (no count conditions of their groups or their own, no group
   captures): what moves_idle reads. */
static int cleanups_by_tiles(const tp_tables *t) {
    for (int32_t g = t->mgrp_off[0]; g < t->mgrp_off[t->np]; g++) {
        if (t->grp_cond_off[g + 1] > t->grp_cond_off[g]) return 0;
        for (int32_t i = t->grp_app_off[g]; i < t->grp_app_off[g + 1]; i++) {
            int32_t a = t->grp_app[i];
            if (t->app_cond_off[a + 1] > t->app_cond_off[a] || t->app_gc[a] >= 0) return 0;
        }
    }
    return 1;
}

/* 1 when no plain solo's one write (on a tile of E->plain_tiles) can make a clean-up after each move of player p
   change the position: each of p's clean-up applications fails a check on a tile no plain solo writes (so it fits
   neither now nor after one), or reads no such tile (checks, sources, rays) and does not change the position now (as
   after one).  Cost: the checks of p's clean-up applications. */
static int moves_idle(tp_engine *E, const Board *B, int32_t p) {
    const tp_tables *T = TABLES(E);
    const uint8_t *w = E->plain_tiles;
    size_t nd = (size_t)T->nd;
    for (int32_t g = T->mgrp_off[p]; g < T->mgrp_off[p + 1]; g++)
        for (int32_t i = T->grp_app_off[g]; i < T->grp_app_off[g + 1]; i++) {
            int32_t a = T->grp_app[i], reads = 0, fails = 0;
            for (int32_t k = T->chk_off[a]; k < T->chk_off[a + 1] && !fails; k++) {
                int32_t u = T->chk_tile[k];
                reads |= w[u];
                fails = !w[u] && !T->masks[(size_t)T->chk_mask[k] * nd + (size_t)B->codes[u]];
            }
            if (fails) continue;
            for (int32_t k = T->wr_off[a]; k < T->wr_off[a + 1]; k++) reads |= w[T->wr_src[k]];
            for (int32_t k = T->ray_tile_off[T->app_ray_off[a]]; k < T->ray_tile_off[T->app_ray_off[a + 1]]; k++)
                reads |= w[T->ray_tiles[k]];
            if (reads) return 0;
            if (!fits(E, B->codes, a)) continue;
            int32_t nw = new_values(E, B, a);
            for (int32_t k = 0; k < nw; k++)
                if (E->nv[k] != B->codes[T->wr_tile[T->wr_off[a] + k]]) return 0;
        }
    return 1;
}

/* 1 when every entry of entry set `set` is a cell of its own turn: a single cell with its own count conditions
   (cond_cell) reading its row's code, with no links, ending the chain, within the step budget, and no other entry
   of its row writing the code it writes (two such make one turn; entries of other rows or tiles change other codes
   or tiles: other turns). */
static int cell_set(const tp_tables *t, size_t set) {
    size_t n = (size_t)t->n, nd = (size_t)t->nd;
    for (size_t u = 0; u < n; u++)
        for (size_t c = 0; c < nd; c++) {
            const int32_t *row = t->ent_off + (set * n + u) * nd + c;
            for (int32_t i = row[0]; i < row[1]; i++) {
                int32_t a = t->ent_app[i], v = -1;
                if (cond_cell(t, a, &v) != (int32_t)c || t->lnk_off[a + 1] > t->lnk_off[a] || !t->app_final[a]
                    || (t->steps && t->app_cost[a] > t->steps))
                    return 0;
                for (int32_t j = row[0]; j < i; j++) {
                    int32_t w = -1;
                    cond_cell(t, t->ent_app[j], &w);
                    if (w == v) return 0;
                }
            }
        }
    return 1;
}

/* E->solo: SOLO_PLAIN for an entry application whose one change, on its own tile, is the whole turn, and its own, where
   it fits and its count conditions hold, in a rule set with no royal rule and no clean-ups of the turn: a solo leaf
   that is a single cell (one_cell), or an entry of only such sets as cell_set admits (its clean-ups after each move
   idle where the node's are: moves_idle); the entry scan counts it (step_leaf's answer: 1) without new values, key
   or hash.  Cost: one pass over the applications and the entry rows. */
static void solo_plain(tp_engine *E) {
    const tp_tables *t = TABLES(E);
    if (t->has_royal || t->grp_off[t->np] > 0) return;
    size_t n = (size_t)t->n, nd = (size_t)t->nd, words = (size_t)E->words, nsets = (size_t)(t->nphases + 1) * (size_t)t->np;
    size_t rows = nsets * n * nd, na = (size_t)t->napps; /* every entry row */
    for (int32_t i = 0; i < t->ent_off[rows]; i++) {
        int32_t a = t->ent_app[i], v = -1;
        if (E->solo[a] == SOLO_LEAF && one_cell(t, a, &v) >= 0) E->solo[a] = SOLO_PLAIN;
    }
    uint8_t *cells = calloc(na + 1, 1); /* 1 in a cell set, 2 in another set */
    E->plain_tiles = calloc(n + 1, 1);
    E->plain_set = calloc(nsets + 1, 1);
    E->plain_off = calloc(nsets + 1, sizeof(int32_t));
    size_t cap = (size_t)t->ent_off[rows] + 1; /* a class per entry at most */
    E->plain_code = malloc(cap * sizeof(int32_t));
    E->plain_app = malloc(cap * sizeof(int32_t));
    E->plain_new = malloc(cap * sizeof(int32_t));
    E->plain_mask = calloc(cap * words, sizeof(uint64_t));
    if (!cells || !E->plain_tiles || !E->plain_set || !E->plain_off || !E->plain_code || !E->plain_app || !E->plain_mask
        || !E->plain_new) {
        free(cells), free(E->plain_tiles), free(E->plain_set), free(E->plain_off), free(E->plain_code);
        free(E->plain_app), free(E->plain_mask), free(E->plain_new);
        E->plain_tiles = NULL, E->plain_set = NULL, E->plain_off = NULL, E->plain_code = NULL, E->plain_app = NULL;
        E->plain_mask = NULL, E->plain_new = NULL;
        return;
    }
    for (size_t set = 0; set < nsets && cleanups_by_tiles(t); set++) {
        uint8_t mark = cell_set(t, set) ? 1 : 2;
        for (int32_t i = t->ent_off[set * n * nd]; i < t->ent_off[(set + 1) * n * nd]; i++) cells[t->ent_app[i]] |= mark;
    }
    for (size_t a = 0; a < na; a++)
        if (cells[a] == 1) E->solo[a] = SOLO_PLAIN;
    for (size_t a = 0; a < na; a++)
        if (E->solo[a] == SOLO_PLAIN) E->plain_tiles[t->app_tile[a]] = 1;
    free(cells);
    /* the sets whose every entry is a plain solo reading its row's code (one code: it fits where its tile holds it),
       its conditions the same wherever it stands (cond_fixed), one entry of a class a tile: a node's count is, per
       class of entries alike in code, write and conditions, the tiles holding the code where an entry of the class
       starts, where they hold (two such entries at one tile writing other codes are two turns: classes apart) */
    int32_t k = 0;
    for (size_t set = 0; set < nsets; set++) {
        int ok = 1;
        int32_t k0 = k;
        for (size_t u = 0; ok && u < n; u++)
            for (size_t c = 0; ok && c < nd; c++) {
                const int32_t *row = t->ent_off + (set * n + u) * nd + c;
                for (int32_t i = row[0]; ok && i < row[1]; i++) {
                    int32_t a = t->ent_app[i], v = -1, c0 = t->app_cond_off[a], c1 = t->app_cond_off[a + 1];
                    ok = E->solo[a] == SOLO_PLAIN && cond_cell(t, a, &v) == (int32_t)c;
                    for (int32_t j = c0; ok && j < c1; j++) ok = cond_fixed(t, t->app_cond[j]);
                    int32_t m = k0, w = ok ? t->maps[(size_t)t->wr_map[t->wr_off[a]] * nd + c] : -1; /* its write */
                    while (ok && m < k) { /* the class alike in code, write and conditions */
                        int32_t b = E->plain_app[m];
                        if (E->plain_code[m] == (int32_t)c && E->plain_new[m] == w
                            && t->app_cond_off[b + 1] - t->app_cond_off[b] == c1 - c0
                            && !memcmp(t->app_cond + t->app_cond_off[b], t->app_cond + c0, (size_t)(c1 - c0) * sizeof(int32_t)))
                            break;
                        m++;
                    }
                    if (!ok) break;
                    if (m == k) {
                        E->plain_code[k] = (int32_t)c;
                        E->plain_new[k] = w;
                        E->plain_app[k++] = a;
                    }
                    ok = !(E->plain_mask[(size_t)m * words + (u >> 6)] >> (u & 63) & 1); /* one turn a tile */
                    E->plain_mask[(size_t)m * words + (u >> 6)] |= 1ULL << (u & 63);
                }
            }
        if (!ok) { /* the set's classes dropped */
            memset(E->plain_mask + (size_t)k0 * words, 0, (size_t)(k - k0) * words * sizeof(uint64_t));
            k = k0;
        }
        E->plain_set[set] = (uint8_t)ok;
        E->plain_off[set + 1] = k;
    }
    for (int32_t i = 0; i < t->napps && !E->plain_any; i++) E->plain_any = E->solo[i] == SOLO_PLAIN;
}

/* E->shut_line_off, E->shut_line: each line set's lines, each once; E->shut_lmask where the board is one word (built
   once, for shut cells and shut steps).  < 0 out of memory (none built). */
static int shut_lines(tp_engine *E) {
    const tp_tables *t = TABLES(E);
    if (E->shut_line_off) return 0;
    size_t n = (size_t)t->n;
    uint8_t *seen = calloc((size_t)t->nlset_tiles + 1, 1);
    int32_t *loff = calloc((size_t)t->nlsets + 1, sizeof(int32_t)), *line = malloc(((size_t)t->nlset_line + 1) * sizeof(int32_t));
    if (!seen || !loff || !line) {
        free(seen), free(loff), free(line);
        return -1;
    }
    int32_t nl = 0;
    for (int32_t s = 0; s < t->nlsets; s++) { /* each line set's lines, each once */
        for (int32_t j = t->lset_off[(size_t)s * n]; j < t->lset_off[(size_t)(s + 1) * n]; j++)
            if (!seen[t->lset_line[j]]) {
                seen[t->lset_line[j]] = 1;
                line[nl++] = t->lset_line[j];
            }
        loff[s + 1] = nl;
    }
    free(seen);
    E->shut_line_off = loff, E->shut_line = line;
    E->shut_lmask = E->words == 1 ? calloc((size_t)nl + 1, sizeof(uint64_t)) : NULL;
    for (int32_t s = 0; E->shut_lmask && s < t->nlsets; s++) { /* each line's tiles, its length that of its set's */
        int32_t len = 0;
        for (int32_t c = 0; c < t->nconds && !len; c++) len = t->cond_lset[c] == s ? t->cond_line[c] : 0;
        for (int32_t j = loff[s]; j < loff[s + 1]; j++)
            for (int32_t i = 0; i < len; i++) E->shut_lmask[j] |= 1ULL << t->lset_tiles[line[j] + i];
    }
    return 0;
}

/* Link l's condition x when it is one condition on lines through tile u (link_open's lnk_hl, no until-line) that
   fails at a count of 0 (no `outside`; 0 fails the comparison), each line listed at u lying on u; else -1. */
static int32_t line_link_at(const tp_engine *E, int32_t l, int32_t u) {
    const tp_tables *t = TABLES(E);
    int32_t x = E->lnk_hl[l];
    if (x < 0 || t->lnk_line[l] >= 0 || t->cond_outside[x] || compare(0, t->cond_op[x], t->cond_value[x])) return -1;
    const int32_t *row = t->lset_off + (size_t)t->cond_lset[x] * (size_t)t->n + (size_t)u;
    for (int32_t j = row[0]; j < row[1]; j++) {
        int on = 0;
        for (int32_t i = 0; i < t->cond_line[x] && !on; i++) on = t->lset_tiles[t->lset_line[j] + i] == u;
        if (!on) return -1;
    }
    return x;
}

/* 1 when entry a, on a row of code c, is a shut cell: a single cell counted alone (SOLO_ALONE) reading code c
   (cond_cell), its own conditions the same wherever it stands (cond_fixed), each of its links followed only while one
   condition on lines through its tile holds (link_open's lnk_hl, no until-line) that fails where the tile is on no
   full line of the condition's codes (its count 0: no `outside`, and 0 fails the comparison), each line listed at
   the tile lying on it: away from the tiles where some line lacks at most that tile, its links are shut and it is
   its own turn (step_cond_leaf's answer: 1). */
static int shut_cell(const tp_engine *E, int32_t a, int32_t c) {
    const tp_tables *t = TABLES(E);
    int32_t v = -1, u = t->app_tile[a];
    if (E->solo[a] != SOLO_ALONE || cond_cell(t, a, &v) != c || (t->app_to[a] >= 0 && t->app_to[a] != u)) return 0;
    for (int32_t j = t->app_cond_off[a]; j < t->app_cond_off[a + 1]; j++)
        if (!cond_fixed(t, t->app_cond[j])) return 0;
    for (int32_t l = t->lnk_off[a]; l < t->lnk_off[a + 1]; l++)
        if (line_link_at(E, l, u) < 0) return 0;
    return 1;
}

/* E->shut_*: the entry sets whose every entry is a shut cell (shut_cell), their classes of entries alike in code and
   conditions with the tiles where one starts, their links' conditions, and each line set's lines once.  Left NULL
   (none) where memory runs out.  Cost: one pass over the entry rows and the line sets. */
static void shut_cells(tp_engine *E) {
    const tp_tables *t = TABLES(E);
    size_t n = (size_t)t->n, nd = (size_t)t->nd, words = (size_t)E->words, nsets = (size_t)(t->nphases + 1) * (size_t)t->np;
    size_t rows = nsets * n * nd, cap = (size_t)t->ent_off[rows] + 1;
    uint8_t *set_ok = calloc(nsets + 1, 1);
    int32_t *off = calloc(nsets + 1, sizeof(int32_t)), *code = malloc(cap * sizeof(int32_t));
    int32_t *app = malloc(cap * sizeof(int32_t)), *nv = malloc(cap * sizeof(int32_t)), *coff = calloc(nsets + 1, sizeof(int32_t));
    size_t ccap = (size_t)t->lnk_cond_off[t->nlinks] + 1;
    int32_t *cond = malloc(ccap * sizeof(int32_t));
    uint64_t *mask = calloc(cap * words, sizeof(uint64_t)), *tiles = calloc(2 * words + 1, sizeof(uint64_t));
    int any = 0;
    if (set_ok && off && code && app && nv && coff && cond && mask && tiles) {
        int32_t k = 0, kc = 0;
        for (size_t set = 0; set < nsets; set++) {
            int ok = t->ent_off[(set + 1) * n * nd] > t->ent_off[set * n * nd];
            int32_t k0 = k, kc0 = kc;
            for (size_t u = 0; ok && u < n; u++)
                for (size_t c = 0; ok && c < nd; c++) {
                    const int32_t *row = t->ent_off + (set * n + u) * nd + c;
                    for (int32_t i = row[0]; ok && i < row[1]; i++) {
                        int32_t a = t->ent_app[i], c0 = t->app_cond_off[a], c1 = t->app_cond_off[a + 1], m = k0, v = -1;
                        ok = shut_cell(E, a, (int32_t)c) && cond_cell(t, a, &v) >= 0;
                        for (int32_t l = t->lnk_off[a]; ok && l < t->lnk_off[a + 1]; l++) {
                            int32_t x = kc0;
                            while (x < kc && cond[x] != E->lnk_hl[l]) x++;
                            if (x == kc && (size_t)kc + 1 >= ccap) ok = 0; /* (out of room: not shut) */
                            else if (x == kc) cond[kc++] = E->lnk_hl[l];
                        }
                        while (ok && m < k) { /* the class alike in codes read and written and conditions */
                            int32_t b = app[m];
                            if (code[m] == (int32_t)c && nv[m] == v && t->app_cond_off[b + 1] - t->app_cond_off[b] == c1 - c0
                                && !memcmp(t->app_cond + t->app_cond_off[b], t->app_cond + c0, (size_t)(c1 - c0) * sizeof(int32_t)))
                                break;
                            m++;
                        }
                        if (!ok) break;
                        if (m == k) {
                            code[k] = (int32_t)c;
                            nv[k] = v;
                            app[k++] = a;
                        }
                        mask[(size_t)m * words + (u >> 6)] |= 1ULL << (u & 63);
                    }
                }
            if (!ok) { /* the set's classes and conditions dropped */
                memset(mask + (size_t)k0 * words, 0, (size_t)(k - k0) * words * sizeof(uint64_t));
                k = k0;
                kc = kc0;
            }
            set_ok[set] = (uint8_t)ok;
            any |= ok;
            off[set + 1] = k;
            coff[set + 1] = kc;
        }
    }
    if (!any || shut_lines(E) < 0) {
        free(set_ok), free(off), free(code), free(app), free(nv), free(coff), free(cond), free(mask), free(tiles);
        return;
    }
    E->shut_set = set_ok, E->shut_off = off, E->shut_code = code, E->shut_new = nv, E->shut_app = app, E->shut_mask = mask;
    E->shut_cond_off = coff, E->shut_cond = cond, E->shut_tiles = tiles;
}

/* The tiles where a link reading one of conditions conds[k0..k1) (each on lines through the tile at hand) may open
   (into near; near + words: scratch): for each condition, the tiles of each line lacking none of the condition's
   codes, and the one tile a line lacks where it lacks one.  Cost: the condition's codes' tile sets and each line's
   tiles. */
static void near_lines(tp_engine *E, const Board *B, const int32_t *conds, int32_t k0, int32_t k1, uint64_t *near) {
    const tp_tables *T = TABLES(E);
    size_t words = (size_t)E->words, nd = (size_t)T->nd;
    uint64_t *own = near + words;
    memset(near, 0, words * sizeof *near);
    for (int32_t k = k0; k < k1; k++) {
        int32_t c = conds[k], s = T->cond_lset[c], len = T->cond_line[c];
        const uint8_t *m = T->masks + (size_t)T->cond_mask[c] * nd;
        memset(own, 0, words * sizeof *own);
        for (size_t x = 0; x < nd; x++)
            if (m[x])
                for (size_t w = 0; w < words; w++) own[w] |= B->bits[x * words + w];
        if (E->shut_lmask) { /* one word: a line's tiles off the codes' tiles, at most one of them */
            for (int32_t j = E->shut_line_off[s]; j < E->shut_line_off[s + 1]; j++) {
                uint64_t line = E->shut_lmask[j], miss = line & ~own[0];
                if (!(miss & (miss - 1))) near[0] |= miss ? miss : line;
            }
            continue;
        }
        for (int32_t j = E->shut_line_off[s]; j < E->shut_line_off[s + 1]; j++) {
            const int32_t *line = T->lset_tiles + E->shut_line[j];
            int32_t miss = -1, out = 0;
            for (int32_t i = 0; i < len && out < 2; i++)
                if (!(own[line[i] >> 6] >> (line[i] & 63) & 1)) {
                    miss = line[i];
                    out++;
                }
            if (out == 1)
                near[miss >> 6] |= 1ULL << (miss & 63);
            else if (out == 0)
                for (int32_t i = 0; i < len; i++) near[line[i] >> 6] |= 1ULL << (line[i] & 63);
        }
    }
}

/* The tiles of entry set `set` where a shut cell's links may open (into E->shut_tiles): near_lines for the set's
   shut cells' link conditions. */
static void shut_near(tp_engine *E, const Board *B, int32_t set) {
    near_lines(E, B, E->shut_cond, E->shut_cond_off[set], E->shut_cond_off[set + 1], E->shut_tiles);
}

/* 1 when application a is a shut step: counted alone from the entry scan (cond_leaf: final, its links followed only
   while their conditions hold; no captures, slide, block or clean-ups), its writes on tiles apart, each link reading
   one condition on lines through its tile at hand (lnk_hl, no until-line) that fails where no such line is full (no
   `outside`, a count of 0 failing it), each line listed at that tile lying on it, and its writes off that tile
   putting none of the conditions' codes on a code its checks admit there.  A line through the tile full after its
   writes then lacked at most that tile before them (the other tiles' codes are kept or written off the condition's
   codes), so away from near_lines' tiles of the node its links are shut. */
static int shut_step(const tp_engine *E, int32_t a) {
    const tp_tables *t = TABLES(E);
    size_t nd = (size_t)t->nd;
    int32_t here = t->app_to[a] >= 0 ? t->app_to[a] : t->app_tile[a];
    if (!E->cond_leaf[a] || t->app_ray_off[a + 1] > t->app_ray_off[a] || t->app_gc[a] >= 0 || t->app_slide[a] >= 0
        || t->app_block[a] || t->safe_off[a + 1] > t->safe_off[a])
        return 0;
    for (int32_t i = t->wr_off[a]; i < t->wr_off[a + 1]; i++)
        for (int32_t j = t->wr_off[a]; j < i; j++)
            if (t->wr_tile[j] == t->wr_tile[i]) return 0;
    for (int32_t l = t->lnk_off[a]; l < t->lnk_off[a + 1]; l++) {
        int32_t x = line_link_at(E, l, here);
        if (x < 0) return 0;
        const uint8_t *m = t->masks + (size_t)t->cond_mask[x] * nd;
        for (int32_t k = t->wr_off[a]; k < t->wr_off[a + 1]; k++) {
            int32_t u = t->wr_tile[k], src = t->wr_src[k];
            if (u == here) continue;
            for (size_t y = 0; y < nd; y++) { /* each code the checks admit on the source: its write off the codes */
                int in = 1;
                for (int32_t i = t->chk_off[a]; in && i < t->chk_off[a + 1]; i++)
                    in = t->chk_tile[i] != src || t->masks[(size_t)t->chk_mask[i] * nd + y];
                if (in && m[t->maps[(size_t)t->wr_map[k] * nd + y]]) return 0;
            }
        }
    }
    return 1;
}

/* E->sstep_*: the shut steps (shut_step) and, per entry set holding one, their links' conditions.  Left NULL (none)
   where there is none or memory runs out.  Cost: one pass over the applications and the entry rows. */
static void shut_steps(tp_engine *E) {
    const tp_tables *t = TABLES(E);
    size_t n = (size_t)t->n, nd = (size_t)t->nd, nsets = (size_t)(t->nphases + 1) * (size_t)t->np;
    size_t cap = nsets * (size_t)t->nconds + 1;
    uint8_t *ok = calloc((size_t)t->napps + 1, 1), *set_ok = calloc(nsets + 1, 1);
    int32_t *coff = calloc(nsets + 1, sizeof(int32_t)), *cond = malloc(cap * sizeof(int32_t));
    uint64_t *near = calloc(2 * (size_t)E->words + 1, sizeof(uint64_t));
    int any = 0;
    if (ok && set_ok && coff && cond && near) {
        for (int32_t a = 0; a < t->napps; a++) ok[a] = (uint8_t)shut_step(E, a);
        int32_t kc = 0;
        for (size_t set = 0; set < nsets; set++) {
            int32_t kc0 = kc;
            if (E->shut_set && E->shut_set[set]) { /* shut cells: counted by shut_near's tiles already */
                coff[set + 1] = kc;
                continue;
            }
            for (int32_t i = t->ent_off[set * n * nd]; i < t->ent_off[(set + 1) * n * nd]; i++) {
                int32_t a = t->ent_app[i];
                if (!ok[a]) continue;
                set_ok[set] = 1;
                for (int32_t l = t->lnk_off[a]; l < t->lnk_off[a + 1]; l++) {
                    int32_t x = kc0;
                    while (x < kc && cond[x] != E->lnk_hl[l]) x++;
                    if (x == kc) cond[kc++] = E->lnk_hl[l]; /* (at most nconds a set) */
                }
            }
            any |= set_ok[set];
            coff[set + 1] = kc;
        }
    }
    if (!any || shut_lines(E) < 0) {
        free(ok), free(set_ok), free(coff), free(cond), free(near);
        return;
    }
    E->sstep = ok, E->sstep_set = set_ok, E->sstep_cond_off = coff, E->sstep_cond = cond, E->sstep_near = near;
}

/* E->lh_ok, E->lh_full: on a board of one word, the conditions follow_conds reads per link loop as a tile set
   (full_lines): on lines (of shut_lines' line masks, their length the condition's) through the tile at hand of the
   whole board, each line of its set listed at every tile on it, so that a tile lies on a full line of the set where
   tile_counts finds one among its row's.  Cost: one pass over the conditions' line sets. */
static void line_conds(tp_engine *E) {
    const tp_tables *t = TABLES(E);
    if (E->words != 1 || !t->nconds) return;
    uint8_t *ok = calloc((size_t)t->nconds + 1, 1);
    int any = 0;
    for (int32_t c = 0; ok && c < t->nconds; c++)
        any |= ok[c] = (uint8_t)(t->cond_kind[c] == COND_BOARD && t->cond_here[c] && t->cond_line[c] > 0
                                 && !t->cond_around[c] && t->cond_lset[c] >= 0);
    if (!any || shut_lines(E) < 0 || !E->shut_lmask) {
        free(ok);
        return;
    }
    size_t n = (size_t)t->n;
    for (int32_t c = 0; c < t->nconds; c++) {
        int32_t s = t->cond_lset[c], len = 0;
        if (!ok[c]) continue;
        for (int32_t d = 0; d < t->nconds && !len; d++) len = t->cond_lset[d] == s ? t->cond_line[d] : 0;
        if (len != t->cond_line[c]) ok[c] = 0; /* (the line masks are of another length) */
        for (int32_t j = t->lset_off[(size_t)s * n]; ok[c] && j < t->lset_off[(size_t)(s + 1) * n]; j++)
            for (int32_t i = 0; ok[c] && i < len; i++) { /* the line listed at each of its tiles */
                int32_t u = t->lset_tiles[t->lset_line[j] + i], on = 0;
                for (int32_t r = t->lset_off[(size_t)s * n + (size_t)u]; r < t->lset_off[(size_t)s * n + (size_t)u + 1] && !on; r++)
                    on = t->lset_line[r] == t->lset_line[j];
                ok[c] = (uint8_t)on;
            }
    }
    E->lh_full = calloc((size_t)t->nconds + 1, sizeof(uint64_t));
    if (!E->lh_full) {
        free(ok);
        return;
    }
    E->lh_ok = ok;
}

/* E->cfol: the applications closed_follow may count, in a rule set with no turn clean-ups, fly-over or step budget:
   a move with no slide, block, captures, safe cells or clean-ups after it, its writes on tiles apart, final, with no
   links (leaf) or links each followed only while one condition on lines through the tile at hand holds (cond_leaf,
   lnk_hl, no until-line: read on codes alone).  closed_count counts such a move's turn where its links are shut. */
static void closed_follows(tp_engine *E) {
    const tp_tables *t = TABLES(E);
    if (t->flies_over || t->steps || t->grp_off[t->np] > t->grp_off[0]) return;
    uint8_t *ok = calloc((size_t)t->napps + 1, 1);
    int any = 0;
    for (int32_t a = 0; ok && a < t->napps; a++) {
        int yes = (E->leaf[a] || E->cond_leaf[a]) && t->app_slide[a] < 0 && !t->app_block[a];
        for (int32_t i = t->wr_off[a]; yes && i < t->wr_off[a + 1]; i++)
            for (int32_t j = t->wr_off[a]; j < i; j++) yes &= t->wr_tile[j] != t->wr_tile[i];
        for (int32_t l = t->lnk_off[a]; yes && l < t->lnk_off[a + 1]; l++) yes = E->lnk_hl[l] >= 0 && t->lnk_line[l] < 0;
        ok[a] = (uint8_t)yes;
        any |= yes;
    }
    if (!any) {
        free(ok);
        return;
    }
    E->cfol = ok;
}

/* The node's tiles where a shut step of entry set `set` may open a link (E->sstep_near), and E->sstep_node, where
   the node is a count by hash that step_cond_leaf may count them in unwritten (0 else).  Cost: near_lines. */
static void shut_steps_near(tp_engine *E, const Board *B, int32_t set, int scan) {
    E->sstep_node = scan && E->sstep_set && E->sstep_set[set] && E->cnt_on && E->cnt_find < 0 && !E->cnt_dup
                    && !E->make_leaves && !E->tracking && !E->pair_on && !E->chains_mode && !E->ways_mode;
    if (E->sstep_node)
        near_lines(E, B, E->sstep_cond, E->sstep_cond_off[set], E->sstep_cond_off[set + 1], E->sstep_near);
}

/* E->solo filled on the first count (solo_apps, or solo_by_changes where keys are by changes alone; solo_plain);
   < 0 out of memory. */
static int solo_ready(tp_engine *E) {
    if (!E->solo_ready) {
        if (E->se_head && solo_apps(E) < 0) return -1;
        if (TABLES(E)->keyed_by_changes) solo_by_changes(E);
        solo_plain(E);
        if (TABLES(E)->keyed_by_changes) shut_cells(E);
        shut_steps(E);
        closed_follows(E);
        line_conds(E);
        E->solo_ready = 1;
    }
    return 0;
}

/* ---- turns told apart by start and end --------------------------------------------------------------------------- */

#define PAIR_MAX_N 1024 /* past this many tiles, no (start, end) stamps (n*n of them) */

/* The class of each application a chain may hold (an entry or a link's target; -1 the others): the least application
   placed on the same tile with the same `to` tile and the same writes (tile, source, map), so that two chains whose
   applications are of the same classes, one by one, make the same changes on the same position.  0, or 1 where some
   such application has no `to` tile, a line capture or a capture by liberties (what it changes is not its writes). */
static int pair_classes(const tp_tables *t, const uint8_t *reach, int32_t *cls, int32_t *ht, size_t hsize) {
    for (int32_t a = 0; a < t->napps; a++) {
        cls[a] = -1;
        if (!reach[a]) continue;
        if (t->app_to[a] < 0 || t->app_ray_off[a + 1] > t->app_ray_off[a] || t->app_gc[a] >= 0) return 1;
        int32_t w0 = t->wr_off[a], nw = t->wr_off[a + 1] - w0;
        uint64_t h = ((uint64_t)(uint32_t)t->app_tile[a] << 32) ^ (uint32_t)t->app_to[a];
        h = h * 0x9E3779B97F4A7C15ULL ^ (uint64_t)nw;
        for (int32_t k = w0; k < w0 + nw; k++)
            h = (h ^ (uint64_t)(uint32_t)t->wr_tile[k] ^ ((uint64_t)(uint32_t)t->wr_src[k] << 21)
                 ^ ((uint64_t)(uint32_t)t->wr_map[k] << 42)) * 0xBF58476D1CE4E5B9ULL;
        for (size_t i = (size_t)(h ^ (h >> 29)) & (hsize - 1);; i = (i + 1) & (hsize - 1)) {
            int32_t b = ht[i];
            if (b < 0) {
                ht[i] = cls[a] = a;
                break;
            }
            int32_t v0 = t->wr_off[b], same = t->app_tile[b] == t->app_tile[a] && t->app_to[b] == t->app_to[a]
                                                && t->wr_off[b + 1] - v0 == nw;
            for (int32_t k = 0; same && k < nw; k++)
                same = t->wr_tile[v0 + k] == t->wr_tile[w0 + k] && t->wr_src[v0 + k] == t->wr_src[w0 + k]
                       && t->wr_map[v0 + k] == t->wr_map[w0 + k];
            if (same) {
                cls[a] = b;
                break;
            }
        }
    }
    return 0;
}

/* 1 where no two paths of classes (pair_classes) from one start tile end on one tile: from each tile, every path
   through the links of its classes' applications (an entry's class, then a class some application of the last one
   links to) ends on a tile no other path from there ends on, so a chain's (start, end) names its classes and so its
   changes.  eoff/edge: each class's distinct next classes; soff/sent: each tile's distinct entry classes (of one entry
   set: a node reads one).  A depth
   first walk per start, each path stamping its end: at most n paths per start, since a second path to a tile fails. */
static int pair_paths(const tp_tables *t, const int32_t *eoff, const int32_t *edge, const int32_t *soff,
                      const int32_t *sent, uint32_t *st, int32_t *stk, int32_t *cur) {
    int32_t n = t->n;
    for (int32_t s = 0; s < n; s++) {
        uint32_t gen = (uint32_t)s + 1;
        for (int32_t i = soff[s]; i < soff[s + 1]; i++) {
            int32_t r = sent[i], top = 0;
            if (st[t->app_to[r]] == gen) return 0;
            st[t->app_to[r]] = gen;
            stk[top] = r;
            cur[top++] = eoff[r];
            while (top) {
                int32_t x = stk[top - 1];
                if (cur[top - 1] == eoff[x + 1]) {
                    top--;
                    continue;
                }
                int32_t y = edge[cur[top - 1]++];
                if (st[t->app_to[y]] == gen || top >= n) return 0;
                st[t->app_to[y]] = gen;
                stk[top] = y;
                cur[top++] = eoff[y];
            }
        }
    }
    return 1;
}

/* CSR rows of distinct class ids: row i's items (row ids in 0..nrows, each item a class) deduplicated in place with
   a stamp per class; off rewritten. */
static void pair_dedupe(int32_t *off, int32_t *item, int32_t nrows, uint32_t *mark) {
    int32_t w = 0;
    for (int32_t i = 0; i < nrows; i++) {
        int32_t k0 = off[i], k1 = off[i + 1];
        off[i] = w;
        for (int32_t k = k0; k < k1; k++)
            if (mark[item[k]] != (uint32_t)i + 1) {
                mark[item[k]] = (uint32_t)i + 1;
                item[w++] = item[k];
            }
    }
    off[nrows] = w;
}

/* The entry triggers (pair_scan), read from the position `B` (the first perft's root): each entry's trigger is the one
   of its checks (its row's tile and code among them) that the fewest tiles of B pass, each code its mask accepts
   there one trigger row.  Any choice is a correct one (an entry is walked where all its checks hold); the fewest
   tiles make the scan short.  < 0 out of memory. */
static int pair_triggers(tp_engine *E, const Board *B) {
    const tp_tables *t = TABLES(E);
    size_t n = (size_t)t->n, nd = (size_t)t->nd, nsets = (size_t)(t->nphases + 1) * (size_t)t->np, rows = nsets * n * nd;
    int32_t nent = t->ent_off[rows];
    int32_t *pick = malloc(((size_t)nent + 1) * 2 * sizeof(int32_t)); /* per entry: trigger tile, mask offset or -1 - code */
    E->trig_off = calloc(rows + 2, sizeof(int32_t));
    E->trig_code_off = calloc(nsets + 1, sizeof(int32_t));
    E->trig_codes = malloc((nsets * nd + 1) * sizeof(int32_t));
    if (!pick || !E->trig_off || !E->trig_code_off || !E->trig_codes) {
        free(pick);
        return -1;
    }
    size_t items = 0;
    for (size_t r = 0; r < rows; r++) {
        size_t u0 = (r / nd) % n, c0 = r % nd;
        for (int32_t i = t->ent_off[r]; i < t->ent_off[r + 1]; i++) {
            const int32_t *sp = E->es + E->es_off[i];
            int64_t best = B->count[c0];
            int32_t bu = (int32_t)u0, bm = -1 - (int32_t)c0;
            for (int32_t k = 0; k < sp[1]; k += 2) {
                int64_t w = 0;
                for (size_t c = 0; c < nd; c++) w += t->masks[(size_t)sp[3 + k + 1] + c] ? B->count[c] : 0;
                if (w < best) best = w, bu = sp[3 + k], bm = sp[3 + k + 1];
            }
            pick[2 * i] = bu;
            pick[2 * i + 1] = bm;
            size_t set = r / (n * nd);
            for (size_t c = 0; c < nd; c++)
                if (bm < 0 ? c == (size_t)(-1 - bm) : t->masks[(size_t)bm + c] != 0) {
                    E->trig_off[(set * n + (size_t)bu) * nd + c + 1]++;
                    items++;
                }
        }
    }
    for (size_t r = 0; r < rows; r++) E->trig_off[r + 1] += E->trig_off[r];
    E->trig_ent = malloc((items + 1) * sizeof(int32_t));
    E->trig_at = malloc((items + 1) * sizeof(int32_t));
    E->trig_code = malloc((items + 1) * sizeof(int32_t));
    int32_t *fill = calloc(rows + 1, sizeof(int32_t));
    if (!E->trig_ent || !E->trig_at || !E->trig_code || !fill || items > INT32_MAX) {
        free(pick), free(fill);
        return -1;
    }
    for (size_t r = 0; r < rows; r++) {
        size_t u0 = (r / nd) % n, c0 = r % nd, set = r / (n * nd);
        for (int32_t i = t->ent_off[r]; i < t->ent_off[r + 1]; i++) {
            int32_t bu = pick[2 * i], bm = pick[2 * i + 1];
            for (size_t c = 0; c < nd; c++)
                if (bm < 0 ? c == (size_t)(-1 - bm) : t->masks[(size_t)bm + c] != 0) {
                    size_t row = (set * n + (size_t)bu) * nd + c;
                    int32_t j = E->trig_off[row] + fill[row]++;
                    E->trig_ent[j] = i;
                    E->trig_at[j] = (int32_t)u0;
                    E->trig_code[j] = (int32_t)c0;
                }
        }
    }
    for (size_t set = 0, k = 0; set < nsets; set++) { /* the codes some trigger row of the set reads */
        for (size_t c = 0; c < nd; c++) {
            int any = 0;
            for (size_t u = 0; !any && u < n; u++) any = E->trig_off[(set * n + u) * nd + c + 1] > E->trig_off[(set * n + u) * nd + c];
            if (any) E->trig_codes[k++] = (int32_t)c;
        }
        E->trig_code_off[set + 1] = (int32_t)k;
    }
    free(pick), free(fill);
    return 0;
}

/* E->hop_fu and hop_fu_off from the tables: each link target's application, `to` tile and checks (pk_chk's, in
   fits' order) packed in tgt's order.  O(targets + their checks); < 0 out of memory. */
static int hop_pack(tp_engine *E) {
    const tp_tables *t = TABLES(E);
    size_t nt = (size_t)t->tgt_off[t->nlinks], len = 0;
    for (size_t k = 0; k < nt; k++) len += 3 + 2 * (size_t)(t->chk_off[t->tgt[k] + 1] - t->chk_off[t->tgt[k]]);
    E->hop_fu = malloc((len + 1) * sizeof(int32_t));
    E->hop_fu_off = malloc((nt + 1) * sizeof(int32_t));
    if (!E->hop_fu || !E->hop_fu_off) return -1;
    int32_t *f = E->hop_fu;
    for (size_t k = 0; k < nt; k++) {
        int32_t y = t->tgt[k], c0 = t->chk_off[y], c1 = t->chk_off[y + 1];
        E->hop_fu_off[k] = (int32_t)(f - E->hop_fu);
        f[0] = y;
        f[1] = t->app_to[y];
        f[2] = 2 * (c1 - c0);
        memcpy(f + 3, E->pk_chk + 2 * (size_t)c0, 2 * (size_t)(c1 - c0) * sizeof(int32_t));
        f += 3 + f[2];
    }
    E->hop_fu_off[nt] = (int32_t)(f - E->hop_fu);
    return 0;
}

/* 1 where every chain is a piece carried from tile to tile (pair_hops' proof), so that a chain's board at its end
   tile is the same whatever its path, and a chain from s to e (e != s) changes s to `empty` and e to s's code:
   every application `reach` marks has no condition, a `to` tile other than its own and two writes, `to` := its own
   tile's code and its own tile := one code `empty` (the same for all), and checks that `to` holds `empty`, so each
   tile a chain passes held `empty` before or was its start; each link is unconditional and its targets are placed on
   the `to` tile of the move it follows, with the same slide (a chain never comes back to a tile: chains.revisits, or
   the repeated position where there is no slide); and, among the applications a node's chains may hold (those of one
   entry set and their follow-ups, found by a walk over the links), every two with links to one `to` tile have the
   same follow-ups, so what a chain may do next depends on its end tile alone.  `first`: [n], `mark`: [napps]
   scratch.  O(nsets * napps + links). */
static int pair_hops_hold(const tp_engine *E, const uint8_t *reach, int32_t *first, uint32_t *mark) {
    const tp_tables *t = TABLES(E);
    size_t nd = (size_t)t->nd, na = (size_t)t->napps, nsets = (size_t)(t->nphases + 1) * (size_t)t->np;
    int32_t empty = -1;
    for (int32_t l = 0; l < t->nlinks; l++)
        if (t->lnk_cond_off[l + 1] > t->lnk_cond_off[l] || E->lnk_hl[l] >= 0 || t->lnk_line[l] >= 0) return 0;
    for (int32_t a = 0; a < t->napps; a++) {
        if (!reach[a]) continue;
        int32_t u = t->app_tile[a], to = t->app_to[a], w0 = t->wr_off[a], carried = 0, emptied = 0, checked = 0;
        if (to < 0 || to == u || t->wr_off[a + 1] - w0 != 2 || t->app_cond_off[a + 1] > t->app_cond_off[a]) return 0;
        for (int32_t k = w0; k < w0 + 2; k++) {
            const int32_t *m = t->maps + (size_t)t->wr_map[k] * nd;
            int same = 1, ident = 1;
            for (size_t c = 0; c < nd; c++) same &= m[c] == m[0], ident &= m[c] == (int32_t)c;
            if (t->wr_tile[k] == to && t->wr_src[k] == u && ident) carried = 1;
            else if (t->wr_tile[k] == u && same && (empty < 0 || m[0] == empty)) emptied = 1, empty = m[0];
        }
        for (int32_t k = t->chk_off[a]; k < t->chk_off[a + 1]; k++) {
            const uint8_t *m = t->masks + (size_t)t->chk_mask[k] * nd;
            int only = 1;
            for (size_t c = 0; c < nd; c++) only &= (m[c] != 0) == ((int32_t)c == empty);
            checked |= t->chk_tile[k] == to && only;
        }
        if (!carried || !emptied || !checked) return 0;
        for (int32_t k = t->tgt_off[t->lnk_off[a]]; k < t->tgt_off[t->lnk_off[a + 1]]; k++)
            if (t->app_tile[t->tgt[k]] != to || t->app_slide[t->tgt[k]] != t->app_slide[a]) return 0;
    }
    int32_t *stk = malloc((na + 1) * sizeof(int32_t));
    uint8_t *in = malloc(na + 1);
    int ok = stk && in;
    for (size_t set = 0; ok && set < nsets; set++) {
        const int32_t *row = t->ent_off + set * (size_t)t->n * nd;
        int32_t top = 0;
        memset(in, 0, na + 1);
        memset(mark, 0, (na + 1) * sizeof(uint32_t));
        for (int32_t i = row[0]; i < row[(size_t)t->n * nd]; i++)
            if (!in[t->ent_app[i]]) in[t->ent_app[i]] = 1, stk[top++] = t->ent_app[i];
        for (int32_t i = 0; i < top; i++) { /* the set's applications: its entries and their follow-ups */
            int32_t a = stk[i];
            for (int32_t k = t->tgt_off[t->lnk_off[a]]; k < t->tgt_off[t->lnk_off[a + 1]]; k++)
                if (!in[t->tgt[k]]) in[t->tgt[k]] = 1, stk[top++] = t->tgt[k];
        }
        for (int32_t i = 0; i < top; i++) first[t->app_to[stk[i]]] = -1;
        for (int32_t i = 0; ok && i < top; i++) {
            int32_t a = stk[i], b = first[t->app_to[a]];
            if (t->lnk_off[a + 1] == t->lnk_off[a]) continue;
            if (b < 0) {
                first[t->app_to[a]] = a;
                continue;
            }
            uint32_t g = 2 * (uint32_t)i + 1; /* the same follow-ups as b, as a set: b's stamped g, a's g + 1 */
            int32_t nb = 0;
            for (int32_t k = t->tgt_off[t->lnk_off[b]]; k < t->tgt_off[t->lnk_off[b + 1]]; k++)
                if (mark[t->tgt[k]] != g) mark[t->tgt[k]] = g, nb++;
            for (int32_t k = t->tgt_off[t->lnk_off[a]]; ok && k < t->tgt_off[t->lnk_off[a + 1]]; k++)
                if (mark[t->tgt[k]] == g) mark[t->tgt[k]] = g + 1, nb--;
                else ok = mark[t->tgt[k]] == g + 1;
            ok = ok && nb == 0;
        }
    }
    free(stk), free(in);
    return ok;
}

static void raw_ready(tp_engine *E);

/* E->pair_state (read at the first perft): 2 where a count's last ply may tell its turns apart by (start, end) alone
   (pair_on): keys are (start, end, changes), no rule reads a turn's chains beyond its key (mandatory classes, the
   maximum rule, royal safety, counters, step budgets, fly-overs), every link is unforced and listed (no table, not
   walked in one order) and pair_paths holds, so that two chains of a node from one tile to one tile make the same
   turn.  Cost: O(napps + links + n * n) once; < 0 out of memory. */
static int pair_ready(tp_engine *E) {
    if (E->pair_state) return 0;
    E->pair_state = 1;
    const tp_tables *t = TABLES(E);
    size_t n = (size_t)t->n, na = (size_t)t->napps, nsets = (size_t)(t->nphases + 1) * (size_t)t->np;
    size_t nrows = nsets * n * (size_t)t->nd;
    if (t->keyed_by_changes || t->has_mandatory || t->has_maximum || t->has_royal || t->steps || t->flies_over
        || t->nctr || n > PAIR_MAX_N || n == 0)
        return 0;
    for (int32_t l = 0; l < t->nlinks; l++)
        if (t->lnk_forced[l] || t->lnk_table[l] >= 0 || E->once[l]) return 0;
    size_t hsize = 2;
    while (hsize < 2 * na + 2) hsize <<= 1;
    int32_t nent = t->ent_off[nrows], ntgt = t->tgt_off[t->nlinks];
    uint8_t *reach = calloc(na + 1, 1);
    int32_t *cls = malloc((na + 1) * sizeof(int32_t)), *ht = malloc(hsize * sizeof(int32_t));
    int32_t *eoff = calloc(na + 1, sizeof(int32_t)), *edge = malloc(((size_t)ntgt + 1) * sizeof(int32_t));
    int32_t *soff = calloc(n + 1, sizeof(int32_t)), *sent = malloc(((size_t)nent + 1) * sizeof(int32_t));
    int32_t *stk = malloc((n + 1) * sizeof(int32_t)), *cur = malloc((n + 1) * sizeof(int32_t));
    uint32_t *mark = calloc(na + n + 1, sizeof(uint32_t));
    int r = -1, ok = 0;
    if (!reach || !cls || !ht || !eoff || !edge || !soff || !sent || !stk || !cur || !mark) goto out;
    r = 0;
    for (int32_t i = 0; i < nent; i++) reach[t->ent_app[i]] = 1;
    for (int32_t k = 0; k < ntgt; k++) reach[t->tgt[k]] = 1;
    for (size_t i = 0; i < hsize; i++) ht[i] = -1;
    if (pair_classes(t, reach, cls, ht, hsize)) goto out;
    /* each class's next classes: the classes of the targets of its applications' links */
    for (int32_t a = 0; a < t->napps; a++)
        if (cls[a] >= 0) eoff[cls[a] + 1] += t->tgt_off[t->lnk_off[a + 1]] - t->tgt_off[t->lnk_off[a]];
    for (size_t a = 0; a < na; a++) eoff[a + 1] += eoff[a];
    for (int32_t a = 0; a < t->napps; a++) { /* mark: how many of its row's items each class has so far */
        if (cls[a] < 0) continue;
        for (int32_t k = t->tgt_off[t->lnk_off[a]]; k < t->tgt_off[t->lnk_off[a + 1]]; k++)
            edge[eoff[cls[a]] + (int32_t)mark[cls[a]]++] = cls[t->tgt[k]];
    }
    memset(mark, 0, (na + n + 1) * sizeof(uint32_t));
    pair_dedupe(eoff, edge, (int32_t)na, mark);
    /* per entry set (a node reads one), each start tile's entry classes */
    ok = 1;
    for (size_t set = 0; ok && set < nsets; set++) {
        const int32_t *row = t->ent_off + set * n * (size_t)t->nd;
        memset(soff, 0, (n + 1) * sizeof(int32_t));
        for (int32_t i = row[0]; i < row[n * (size_t)t->nd]; i++) soff[t->app_tile[t->ent_app[i]] + 1]++;
        for (size_t u = 0; u < n; u++) soff[u + 1] += soff[u];
        memset(mark, 0, (na + n + 1) * sizeof(uint32_t));
        for (int32_t i = row[0]; i < row[n * (size_t)t->nd]; i++) {
            int32_t a = t->ent_app[i], u = t->app_tile[a];
            sent[soff[u] + (int32_t)mark[na + (size_t)u]++] = cls[a];
        }
        memset(mark, 0, (na + n + 1) * sizeof(uint32_t));
        pair_dedupe(soff, sent, (int32_t)n, mark);
        memset(mark, 0, (na + n + 1) * sizeof(uint32_t));
        ok = pair_paths(t, eoff, edge, soff, sent, mark, stk, cur);
    }
    if (!ok) { /* or two chains from one tile to one tile alike */
        memset(mark, 0, (na + n + 1) * sizeof(uint32_t));
        E->pair_hops = ok = pair_hops_hold(E, reach, cur, mark);
    } /* or two chains from one tile to one tile alike */
    if (ok) {
        size_t words = (size_t)E->words;
        E->pair_stamp = calloc(n * n, sizeof(uint32_t));
        E->pair_ord = malloc(n * n * sizeof(int32_t));
        E->pair_tcnt = malloc(n * sizeof(int32_t));
        E->pair_cw = calloc((size_t)t->np * words + 1, sizeof(uint64_t));
        if (E->pair_hops
            && (!(E->hop_stamp = calloc(n * n, sizeof(uint32_t))) || !(E->hop_stk = malloc(n * sizeof(int32_t)))
                || hop_pack(E) < 0)) {
            r = -1;
            goto out;
        }
        if (!E->pair_stamp || !E->pair_ord || !E->pair_cw || !E->pair_tcnt) {
            r = -1;
            goto out;
        }
        for (int32_t q = 0; q < t->np; q++) { /* the tiles each player's turn clean-ups write */
            uint64_t *cw = E->pair_cw + (size_t)q * words;
            for (int32_t g = t->grp_off[q]; g < t->grp_off[q + 1]; g++)
                for (int32_t i = t->grp_app_off[g]; i < t->grp_app_off[g + 1]; i++) {
                    int32_t a = t->grp_app[i];
                    if (t->app_ray_off[a + 1] > t->app_ray_off[a] || t->app_gc[a] >= 0)
                        for (size_t w = 0; w < words; w++) cw[w] = ~0ULL;
                    for (int32_t k = t->wr_off[a]; k < t->wr_off[a + 1]; k++)
                        cw[t->wr_tile[k] >> 6] |= 1ULL << (t->wr_tile[k] & 63);
                }
        }
        if (pair_triggers(E, &E->main) < 0) {
            r = -1;
            goto out;
        }
        E->pair_state = 2;
        raw_ready(E);
    }
out:
    free(reach), free(cls), free(ht), free(eoff), free(edge), free(soff), free(sent), free(stk), free(cur), free(mark);
    return r;
}

/* raw_ok for a rule set whose chains (a count's, pair_on) read nothing of the board but its codes between their first
   move and their turn clean-ups: no link with conditions or a line, no follow-up with conditions, no captures by rays
   or liberties, no clean-ups after each move.  Such a chain is written by put_raw (walk_entry sets E->raw), its path's
   positions compared without the hash (raw_stands), and finish brings the hash, counts and tile sets level before the
   clean-ups (raw_sync).  O(links + napps). */
static void raw_ready(tp_engine *E) {
    const tp_tables *t = TABLES(E);
    E->raw_ok = 0;
    if (t->mgrp_off[t->np] > t->mgrp_off[0]) return;
    for (int32_t l = 0; l < t->nlinks; l++) {
        if (t->lnk_cond_off[l + 1] > t->lnk_cond_off[l] || E->lnk_hl[l] >= 0 || t->lnk_line[l] >= 0) return;
        for (int32_t k = t->tgt_off[l]; k < t->tgt_off[l + 1]; k++)
            if (t->app_cond_off[t->tgt[k] + 1] > t->app_cond_off[t->tgt[k]]) return;
    }
    for (int32_t a = 0; a < t->napps; a++)
        if (t->app_ray_off[a + 1] > t->app_ray_off[a] || t->app_gc[a] >= 0) return;
    E->raw_w = calloc((size_t)t->n + 1, sizeof(int32_t));
    E->raw_ok = E->raw_w != NULL;
}

/* 1 where a count's last ply tells its turns apart by (start, end) (pair_ready, read after a first perft): for tests. */
int32_t tp_pair_ok(const tp_engine *e) {
    return e->pair_state == 2 ? 1 + e->pair_hops : 0;
}

/* 1 where a count's chains are written on the codes alone (raw_ready, read after a first perft): for tests. */
int32_t tp_raw_ok(const tp_engine *e) {
    return e->pair_state == 2 && e->raw_ok;
}

/* Leaf turns at `depth` (>= 1) below the position, the strict end rules read at every node. */
int64_t tp_perft(tp_engine *e, const int32_t *codes, int32_t player, int32_t ply, int32_t depth) {
    return tp_perft_made(e, codes, player, ply, depth, 0, NULL);
}

/* tp_perft; with `made`, every leaf turn is made and taken back rather than the last ply counted in bulk; `counters`
   the position's (RuleSet.counters; NULL: all 0). */
int64_t tp_perft_made(tp_engine *e, const int32_t *codes, int32_t player, int32_t ply, int32_t depth, int32_t made,
                      const int32_t *counters) {
    int r = start(e, codes, player, 0, counters);
    if (r < 0) return r;
    if (depth < 1) return TP_ERR_ARG;
    if (solo_ready(e) < 0 || pair_ready(e) < 0) return TP_ERR_CAP;
    e->make_leaves = made != 0;
    int64_t got = perft(e, &e->main, player, ply, depth, NULL, 0);
    e->make_leaves = 0;
    return got;
}

/* tp_perft_made counting each turn once per way of playing it (perft --rbg: perft.play_paths), every leaf made. */
int64_t tp_perft_ways(tp_engine *e, const int32_t *codes, int32_t player, int32_t ply, int32_t depth,
                      const int32_t *counters) {
    e->ways_mode = 1;
    int64_t got = tp_perft_made(e, codes, player, ply, depth, 0, counters);
    e->ways_mode = 0;
    return got;
}

/* The position's turns in the phase of index `phase` (-1: the regular play; tp_keys reads them; with `chains`,
   tp_chains reads every accepted chain): the number of legal turns, or < 0 an error. */
int32_t tp_turns(tp_engine *e, const int32_t *codes, int32_t player, int32_t phase, int32_t chains) {
    int r = start(e, codes, player, chains, NULL);
    if (r < 0) return r;
    if (phase < -1 || phase >= TABLES(e)->nphases) return TP_ERR_ARG;
    return node_turns_in(e, &e->main, player, phase);
}

/* tp_turns, then counts[k] = leaf turns at `depth` below each legal turn k (0 for the others);
   returns the number of turns tp_keys lists.  A position the end rules end has none. */
int32_t tp_divide(tp_engine *e, const int32_t *codes, int32_t player, int32_t ply, int32_t depth, int64_t *counts,
                  int32_t cap, const int32_t *counters) {
    int r = start(e, codes, player, 0, counters);
    if (r < 0) return r;
    if (depth < 1) return TP_ERR_ARG;
    if (solo_ready(e) < 0) return TP_ERR_CAP;
    r = ended(e, &e->main, player, ply, NULL, 0);
    if (r) return r < 0 ? r : 0;
    r = node_turns_in(e, &e->main, player, phase_at(TABLES(e), ply));
    if (r < 0) return r;
    if ((r == 0 && TABLES(e)->passing) || TABLES(e)->pass_always)
        return TP_ERR_ARG; /* the pass is a turn without a key: counted in Python */
    int32_t nk = e->nkeys;
    if (nk > cap) return TP_ERR_CAP;
    for (int32_t k = 0; k < nk; k++) {
        counts[k] = 0;
        if (!e->keys[k].legal) continue;
        if (depth == 1) {
            counts[k] = 1;
            continue;
        }
        const Key *K = &e->keys[k];
        int64_t sub = next_counters(e, &e->main, K, ply);
        if (sub == 0) sub = apply_key(e, &e->main, K);
        if (sub == 0) sub = perft_below(e, &e->main, next_player(TABLES(e), player, ply), ply + 1, depth - 1,
                                        e->chg + 2 * (size_t)K->off, K->len);
        restore(e, &e->main, 0);
        if (sub < 0) return (int32_t)sub;
        counts[k] = sub;
    }
    return nk;
}

/* The keys of the last tp_turns / tp_divide as records [start, end, legal, flagged, len, (tile, code)*len]
   (codes as the rule set writes them); returns the number of ints, written only when it is <= cap. */
int32_t tp_keys(tp_engine *e, int32_t *out, int32_t cap) {
    int64_t need = 0;
    for (int32_t k = 0; k < e->nkeys; k++) need += 5 + 2 * e->keys[k].len;
    if (need > INT32_MAX) return TP_ERR_CAP;
    if (need > cap) return (int32_t)need;
    for (int32_t k = 0; k < e->nkeys; k++) {
        const Key *K = &e->keys[k];
        *out++ = K->start;
        *out++ = K->end;
        *out++ = K->legal;
        *out++ = K->flagged;
        *out++ = K->len;
        for (int32_t c = 0; c < K->len; c++) {
            *out++ = e->chg[2 * (K->off + c)];
            *out++ = TABLES(e)->raw_code[e->chg[2 * (K->off + c) + 1]];
        }
    }
    return (int32_t)need;
}

/* The least label path of each accepted key of the last tp_turns in chains mode (Chains.finish's Found), as records
   [key, len, app*len, path length, (separator rank, tile)*path length] in the order the walk first accepted a chain
   of each; returns the number of ints, written only when it is <= cap. */
int32_t tp_chains(tp_engine *e, int32_t *out, int32_t cap) {
    int64_t need = 0;
    for (int32_t i = 0; i < e->nacc; i++) {
        const int32_t *o = e->chains + e->keys[e->acc_order[i]].best;
        need += 3 + o[0] + 2 * o[1 + o[0]];
    }
    if (need > INT32_MAX) return TP_ERR_CAP;
    if (need > cap) return (int32_t)need;
    for (int32_t i = 0; i < e->nacc; i++) {
        const int32_t *o = e->chains + e->keys[e->acc_order[i]].best;
        int32_t len = 2 + o[0] + 2 * o[1 + o[0]];
        *out++ = e->acc_order[i];
        memcpy(out, o, (size_t)len * sizeof *out);
        out += len;
    }
    return (int32_t)need;
}

/* Chains.in_check: 1 when a royal piece of `player` can be taken, 0 if not, < 0 an error. */
int32_t tp_in_check(tp_engine *e, const int32_t *codes, int32_t player) {
    int r = start(e, codes, player, 0, NULL);
    if (r < 0) return r;
    return in_check(e, &e->main, player);
}

/* ---- random playouts ------------------------------------------------------------------------------ */

/* The key of the turn `pick` (from 0) of a node counted by hash (node_turns_in with cnt_on, no TP_ERR_DUP: the
   turns in the order of their first chains, as the keyed walk makes its keys) into E->cnt_key: the chains of the
   entry move whose walk counted it walked again until one ends as its witness (TP_ERR_FOUND).  0, or < 0 an
   error. */
/* The key of shut step a's turn (SSTEP_RANK) on the node's board B, as count_chain makes it at the pick of the walk
   that writes it: its changes (the last write of each tile, where it changes the tile) sorted by tile, from the
   entry's tile to its `to` (or its tile; keyed by changes: from and to the first change's tile), the counters it
   resets.  0, or < 0 an error.  Cost: a step per write. */
static int sstep_pick(tp_engine *E, const Board *B, int32_t a) {
    const tp_tables *T = TABLES(E);
    int32_t nw = new_values(E, B, a), w0 = T->wr_off[a], nc = 0;
    for (int32_t k = 0; k < nw; k++) {
        int32_t u = T->wr_tile[w0 + k], later = 0;
        for (int32_t j = k + 1; j < nw && !later; j++) later = T->wr_tile[w0 + j] == u;
        if (later || E->nv[k] == B->codes[u]) continue; /* a later write decides the tile, or none changes it */
        int32_t *x = E->tmp + 3 * nc;
        int32_t i = nc++;
        for (; i > 0 && x[-3] > u; i--, x -= 3) memcpy(x, x - 3, 3 * sizeof *x);
        x[0] = u;
        x[1] = E->nv[k];
        x[2] = B->codes[u];
    }
    int32_t start = T->app_tile[a], end = T->app_to[a] >= 0 ? T->app_to[a] : start;
    if (T->keyed_by_changes) start = end = E->tmp[0];
    int r = found_key(E, start, end, nc, T->nctr ? T->app_reset[a] : 0);
    return r == TP_ERR_FOUND ? 0 : r;
}

static int pick_turn(tp_engine *E, Board *B, int32_t p, int32_t pick) {
    int32_t i = 0;
    if (E->ac_stamp) apart_fresh(E);
    while (i < E->cnt_nent && E->cnt_upto[i] <= pick) i++;
    if (i == E->cnt_nent) return TP_ERR_ARG;
    int32_t a = E->cnt_ent[i];
    if (pick < E->cnt_n && E->cnt_order[pick] == SHUT_RANK) { /* a shut cell numbered without a hash (node_turns_in):
                                                                  its one change's key, as count_chain makes it */
        const tp_tables *T = TABLES(E);
        int32_t u = T->app_tile[a];
        E->tmp[0] = u;
        E->tmp[1] = T->maps[(size_t)T->wr_map[T->wr_off[a]] * (size_t)T->nd + (size_t)B->codes[u]];
        E->tmp[2] = B->codes[u];
        int r = found_key(E, u, u, 1, T->nctr ? T->app_reset[a] : 0);
        return r == TP_ERR_FOUND ? 0 : r;
    }
    if (pick < E->cnt_n && E->cnt_order[pick] == SSTEP_RANK) return sstep_pick(E, B, a); /* no walk */
    Walk W = {B, p, WALK_TURNS, E->path_top, E->undo_top, E->seq_top, TABLES(E)->app_tile[a], NULL, NULL, 0};
    int r = push_level(E, B);
    if (r < 0) return r;
    E->cnt_find = pick;
    E->cnt_on = 1;
    r = step(E, &W, a, W.start, 0);
    E->cnt_on = 0;
    E->cnt_find = -1;
    E->path_top--;
    return r == TP_ERR_FOUND ? 0 : r < 0 ? r : TP_ERR_ARG;
}


/* pass = "always" in a playout: whether a node of `legal` turns passes (the pass one more turn, the last of them,
   drawn from the playout's stream s). */
static inline int draw_pass(const tp_tables *T, uint64_t *s, int32_t legal) {
    return T->pass_always && (int32_t)(splitmix(s) % (uint64_t)(legal + 1)) == legal;
}

/* Whether a playout draws its turns as draw_legal does: a royal rule, and no mandatory class, maximum rule or pass at
   any time (which count the legal turns first). */
static inline int royal_draws(const tp_tables *T) {
    return T->has_royal && !T->has_mandatory && !T->has_maximum && !T->pass_always;
}

/* The key of the turn a playout of a royal rule set picks among the node's keys from k0 (each a turn before the
   royal test; legal: it passed): up to one draw per key, each uniform over all of them, the first legal one taken;
   else, the legal ones counted, one of them drawn (-1: none).  Each legal turn is alike likely, and the generated C
   (gen_playout) makes the same draws testing only the turns drawn.  Cost: the draws, a pass over the keys where
   they all miss. */
static int32_t draw_legal(tp_engine *E, int32_t k0, uint64_t *s) {
    int32_t nk = E->nkeys - k0, legal = 0;
    for (int32_t d = 0; d < nk; d++) {
        int32_t k = k0 + (int32_t)(splitmix(s) % (uint64_t)nk);
        if (E->keys[k].legal) return k;
    }
    for (int32_t k = k0; k < E->nkeys; k++) legal += E->keys[k].legal;
    if (!legal) return -1;
    int32_t pick = (int32_t)(splitmix(s) % (uint64_t)legal);
    for (int32_t k = k0; k < E->nkeys; k++)
        if (E->keys[k].legal && pick-- == 0) return k;
    return -1;
}

/* A playout's counters after the turn of key K at ply q: the next row (next_counters), then the playout's. */
static int playout_counters(tp_engine *E, const Board *B, const Key *K, int32_t q) {
    int r = next_counters(E, B, K, q);
    if (r < 0) return r;
    size_t nctr = (size_t)TABLES(E)->nctr;
    memcpy(E->ctr + nctr, E->ctr + 2 * nctr, nctr * sizeof *E->ctr);
    return 0;
}
/* One random turn of a playout at a node (ply q) no end rule ended: the legal turns of q's phase listed with keys
   (node_turns_in) or counted by hash and the picked one found again (pick_turn), one picked uniformly by the stream
   s, in the order the walk finds them (under a royal rule drawn among all the keys, the royal test's answer
   read for the one drawn: draw_legal), and made, its counters moved on; *last, *nlast its changes
   (kept in E->chg until the next node's listing writes there).  With pass = "always" the pass is one more choice,
   the last: *pass says it was picked (nothing made).  Returns the number of legal turns (0: none, nothing made), or
   < 0 an error. */
static int32_t playout_turn(tp_engine *E, Board *B, int32_t p, int32_t q, uint64_t *s, const int32_t **last,
                            int32_t *nlast, int *pass) {
    const tp_tables *T = TABLES(E);
    int32_t k0 = E->nkeys, c0 = E->nchg, phase = phase_at(T, q);
    /* counted by hash where every chain is accepted (no royal rule, mandatory class or maximum rule), then the
       picked one found again; else, or once two turns were alike by hash (cnt_dup 2), listed with keys */
#ifndef TP_GEN_ENTRIES
    E->cnt_on = E->cnt_dup < 2 && !T->has_royal && !T->has_mandatory && !T->has_maximum && !E->chains_mode
                && !E->ways_mode;
#endif
    pair_begin(E);
    /* carried pieces (hop_fast_for): counted row by row in the chains' order (hop_post), the key made from pair_ord
       (hop_key); else counted by triggers, the picked turn's tile walked again in order (pair_locate) */
    int hop = E->hop_fast = E->hop_order = hop_fast_for(E, p);
    E->pair_any = E->pair_on && !hop;
    int32_t legal = node_turns_in(E, B, p, phase);
    while (legal == TP_ERR_DUP) { /* as perft's: with witnesses, then keys */
        E->cnt_on = ++E->cnt_dup < 2;
        E->nkeys = k0;
        E->nchg = c0;
        legal = node_turns_in(E, B, p, phase);
    }
    E->hop_fast = E->hop_order = 0;
    int by_hash = E->cnt_on;
    E->cnt_on = 0;
    if (legal < 0) return legal;
    *pass = draw_pass(T, s, legal);
    if (royal_draws(T) && !by_hash) { /* a turn drawn among the keys, the royal test's answer read for it */
        int32_t k = draw_legal(E, k0, s);
        if (k < 0) legal = 0;
        if (k >= 0) {
            int r = playout_counters(E, B, &E->keys[k], q);
            if (r < 0) return r;
            if (apply_key(E, B, &E->keys[k]) < 0) return TP_ERR_CAP;
            *last = E->chg + 2 * (size_t)E->keys[k].off; /* kept until the next node_turns writes there */
            *nlast = E->keys[k].len;
        }
    } else if (legal > 0 && !*pass) {
        int32_t pick = (int32_t)(splitmix(s) % (uint64_t)legal), k = -1;
        if (by_hash) {
            int r = 0;
#ifndef TP_GEN_ENTRIES
            if (hop && !E->cnt_nent) r = hop_key(E, B, pick); /* every entry by hop_post or hop_step */
            else if (E->pair_any || hop) r = pair_locate(E, B, p, phase, pick);
#endif
            if (r == 0) r = pick_turn(E, B, p, pick); /* r 1: pair_locate made the key */
            if (r < 0) return r;
            k = E->cnt_key;
        } else {
            for (k = k0; k < E->nkeys; k++)
                if (E->keys[k].legal && pick-- == 0) break;
        }
        int r = playout_counters(E, B, &E->keys[k], q);
        if (r < 0) return r;
        if (apply_key(E, B, &E->keys[k]) < 0) return TP_ERR_CAP;
        *last = E->chg + 2 * (size_t)E->keys[k].off; /* kept until the next node_turns writes there */
        *nlast = E->keys[k].len;
    }
    E->pair_on = E->pair_any = 0;
    E->nkeys = k0;
    E->nchg = c0;
    return legal;
}

#ifdef TP_GEN_PLAYOUT
/* playout_turn for a rule set whose quiet moves are listed straight from their new values (generated: the phase of
   ply q, the pass at any time drawn and the counters moved on as playout_turn does), and ended after a turn, its end
   rules read as constant lines (generated). */
static int32_t TP_GEN_PLAYOUT(tp_engine *E, Board *B, int32_t p, int32_t q, uint64_t *s, const int32_t **last,
                              int32_t *nlast, int *pass);
static int TP_GEN_PLAYOUT_ENDED(tp_engine *E, Board *B, int32_t p, int32_t ply, const int32_t *last, int32_t nlast);
#define PLAYOUT_TURN TP_GEN_PLAYOUT
#define PLAYOUT_ENDED TP_GEN_PLAYOUT_ENDED
#else
#define PLAYOUT_TURN playout_turn
#define PLAYOUT_ENDED ended
#endif

/* `count` random games from the position, playouts first..first+count-1 of the stream `seed` (each playout's
   choices depend only on seed and its index): each runs until a strict end rule ends it, the player to move has
   no turn, or `max_plies` plies are played.  stats[0..3] += plies played, games ended by an end rule, by no turn,
   by the ply limit.  With count == 1 the final position is left in `final` (dense codes), its player and ply in
   final[n], final[n+1], its counters after them.  `counters`: the position's (NULL: all 0).  Returns count, or < 0
   an error. */
int32_t tp_playouts(tp_engine *e, const int32_t *codes, int32_t player, int32_t ply, int32_t max_plies, int64_t first,
                    int32_t count, uint64_t seed, int64_t *stats, int32_t *final, const int32_t *counters) {
    int r = start(e, codes, player, 0, counters);
    if (r < 0) return r;
    if (count < 0 || max_plies < 0) return TP_ERR_ARG;
    if (solo_ready(e) < 0) return TP_ERR_CAP; /* the entry scan's single cells counted alone (step_cond_leaf) */
    if (pair_ready(e) < 0) return TP_ERR_CAP;   /* and turns told apart by (start, end) */
    Board *B = &e->main;
    size_t nctr = (size_t)TABLES(e)->nctr;
    int root = count > 0 && max_plies > 0 ? ended(e, B, player, ply, NULL, 0) : 0; /* the same for every playout */
    if (root < 0) return root;
    for (int32_t i = 0; i < count; i++) {
        uint64_t s = seed ^ ((uint64_t)(first + i) * 0xD1B54A32D192ED03ULL);
        int32_t p = player, q = ply, played = 0, why = 3;
        e->ctr_top = 1; /* the playout's counters: row 1, the next turn's in row 2; the start's stay in row 0 */
        memcpy(e->ctr + nctr, e->ctr, nctr * sizeof *e->ctr);
        const int32_t *last = NULL;
        int32_t nlast = 0;
        while (played < max_plies) {
            r = played ? PLAYOUT_ENDED(e, B, p, q, last, nlast) : root;
            if (r < 0) return r;
            if (r) {
                why = 1;
                break;
            }
            int pass = 0;
            int32_t legal = PLAYOUT_TURN(e, B, p, q, &s, &last, &nlast, &pass);
            if (legal < 0) return legal;
            if (legal == 0 || pass) {
                int32_t k0 = e->nkeys, c0 = e->nchg, phase = phase_at(TABLES(e), q);
                int other = pass; /* pass = "when-stuck": a stuck player passes while another player has a turn */
                for (int32_t o = 1; TABLES(e)->passing && !other && o < TABLES(e)->np; o++) {
                    int32_t got = node_turns_in(e, B, (p + o) % TABLES(e)->np, phase);
                    e->nkeys = k0;
                    e->nchg = c0;
                    if (got < 0) return got;
                    other = got > 0;
                }
                if (other) {
                    r = next_counters(e, B, NULL, q);
                    if (r < 0) return r;
                    memcpy(e->ctr + nctr, e->ctr + 2 * nctr, nctr * sizeof *e->ctr);
                    p = next_player(TABLES(e), p, q);
                    q++;
                    played++;
                    last = NULL;
                    nlast = 0;
                    continue;
                }
                why = 2;
                break;
            }
            p = next_player(TABLES(e), p, q);
            q++;
            played++;
        }
        stats[0] += played;
        stats[why]++;
        if (count == 1 && final) {
            memcpy(final, B->codes, (size_t)TABLES(e)->n * sizeof *final);
            final[TABLES(e)->n] = p;
            final[TABLES(e)->n + 1] = q;
            memcpy(final + TABLES(e)->n + 2, e->ctr + nctr, nctr * sizeof *final);
        }
        restore(e, B, 0);
        e->undo_top = 0;
    }
    e->ctr_top = 0;
    return count;
}
