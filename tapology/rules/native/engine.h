/* The native rule engine's interface: declarations only (cffi reads this file as its cdef).
 *
 * A rule set on one board arrives as flat tables (tapology/rules/native/tables.py builds them
 * from a Chains/Compiled).  Codes are *dense*: the valid tile codes renumbered 0..nd-1.
 * "off" arrays are CSR offsets: the items of row i are at [off[i], off[i+1]).  A mask is a row
 * of nd bytes (1 where the mask accepts the dense code), so every check is one load.
 */

typedef struct {
    /* sizes (array lengths, checked by tp_check) */
    int32_t n;          /* tiles */
    int32_t nd;         /* dense codes */
    int32_t np;         /* players */
    int32_t napps;      /* applications (moves and clean-ups placed on the board) */
    int32_t nmasks;     /* rows of masks */
    int32_t nmaps;      /* rows of maps */
    int32_t nchk, nwr, nlinks, ntgt, nsafe, nent;
    int32_t ngroups, ngrp_cond, ngrp_app, ngrp_trig;
    int32_t nconds, ncond_codes, ncond_tiles;
    int32_t natt, natt_apps;
    int32_t nends, nend_conds, nline_tiles;

    const int32_t *raw_code;    /* [nd] the tile code a dense code stands for */
    const uint8_t *masks;       /* [nmasks*nd] */
    const int32_t *maps;        /* [nmaps*nd] write map: dense code read at the source -> dense code written */

    /* applications */
    const int32_t *app_tile;    /* [napps] the tile it is placed at (a chain's start tile) */
    const int32_t *app_to;      /* [napps] its `to` tile, or -1 */
    const uint8_t *app_flag;    /* [napps] 1 when its class is mandatory */
    const int32_t *app_slide;   /* [napps] the index of its move if that move repeats (slides), else -1 */
    const int32_t *chk_off;     /* [napps+1] -> chk_tile, chk_mask */
    const int32_t *chk_tile;    /* [nchk] */
    const int32_t *chk_mask;    /* [nchk] mask row */
    const int32_t *wr_off;      /* [napps+1] -> wr_tile, wr_src, wr_map */
    const int32_t *wr_tile;     /* [nwr] the tile written */
    const int32_t *wr_src;      /* [nwr] the tile whose code (before the move) the map reads */
    const int32_t *wr_map;      /* [nwr] map row */
    const int32_t *lnk_off;     /* [napps+1] -> links */
    const uint8_t *lnk_forced;  /* [nlinks] */
    const int32_t *tgt_off;     /* [nlinks+1] -> tgt */
    const int32_t *tgt;         /* [ntgt] application ids a link may continue with */
    const int32_t *safe_off;    /* [napps+1] -> safe_tile */
    const int32_t *safe_tile;   /* [nsafe] */

    /* entries: row (player*n + tile)*nd + code lists the applications starting a turn there */
    const int32_t *ent_off;     /* [(nphases+1)*np*n*nd+1]: the regular play's rows first (phases below) */
    const int32_t *ent_app;     /* [nent] */

    /* turn clean-ups: groups of one clean-up each, per player in file order */
    const int32_t *grp_off;     /* [np+1] -> groups */
    const int32_t *grp_cond_off;/* [ngroups+1] -> grp_cond (condition ids) */
    const int32_t *grp_cond;    /* [ngrp_cond] */
    const int32_t *grp_app_off; /* [ngroups+1] -> grp_app */
    const int32_t *grp_app;     /* [ngrp_app] */
    const int32_t *grp_trig_off;/* [ngroups+1] -> grp_trig: codes one of which some tile must hold for any app to fit */
    const int32_t *grp_trig;    /* [ngrp_trig] */
    const uint8_t *grp_always;  /* [ngroups] 1: no such codes (always tried) */
    const uint8_t *grp_indexed; /* [ngroups] 1: each application has a key check (the one its trigger codes come
                                   from) and the key tiles never decrease along the group: see grp_tile_off */
    const int32_t *grp_tile_off;/* [ngroups*(n+1)] indexed groups: the applications keyed at tile u are
                                   grp_app[row[u] .. row[u+1]) with row = grp_tile_off + g*(n+1) */

    /* count conditions, resolved for one player: kind 0 whole board (counts of cond codes),
       1 region (tiles of cond_tiles holding a code of cond_mask), 2 missing region (never holds) */
    const int32_t *cond_kind;   /* [nconds] */
    const int32_t *cond_op;     /* [nconds] 0 >=, 1 <=, 2 ==, 3 !=, 4 >, 5 < */
    const int32_t *cond_value;  /* [nconds] */
    const int32_t *cond_mask;   /* [nconds] mask row */
    const int32_t *cond_code_off;  /* [nconds+1] -> cond_codes */
    const int32_t *cond_codes;  /* [ncond_codes] */
    const int32_t *cond_tile_off;  /* [nconds+1] -> cond_tiles */
    const int32_t *cond_tiles;  /* [ncond_tiles] */

    /* royal rule */
    int32_t has_royal;          /* the rule set names royal states */
    int32_t has_mandatory;      /* the rule set names mandatory classes */
    const uint8_t *royal_mine;  /* [np*nd] the code is a royal piece of the player */
    const uint8_t *royal_any;   /* [nd] the code's state is royal (whoever owns it) */
    const int32_t *probe;       /* [np] the player's probe code on safe tiles, or -1 */

    /* attack index: row q*n + u lists groups (one entry tile each) of q's entries whose chains could write u */
    const int32_t *att_off;     /* [np*n+1] -> groups */
    const int32_t *att_tile;    /* [natt] the entry tile */
    const int32_t *att_mask;    /* [natt] union of the codes below */
    const int32_t *att_app_off; /* [natt+1] -> att_app, att_app_mask */
    const int32_t *att_app;     /* [natt_apps] entry application */
    const int32_t *att_app_mask;/* [natt_apps] codes at the entry tile it enters for */

    /* strict end rules (no-turns left out): kind 1 plies, 2 line, 3 count */
    const int32_t *end_kind;    /* [nends] */
    const int32_t *end_check;   /* [nends] -1 any, 0 not in check, 1 in check */
    const int32_t *end_value;   /* [nends] plies */
    const int32_t *end_pmask;   /* [nends*np] line: mask row of the player's states, -1 none; count: 1 applies, 0 not */
    const int32_t *end_cond_off;/* [nends*np+1] -> end_conds (count) */
    const int32_t *end_conds;   /* [nend_conds] */
    const int32_t *end_k;       /* [nends] line length */
    const int32_t *end_line_off;/* [nends+1] -> line_tiles (k tiles a line) */
    const int32_t *line_tiles;  /* [nline_tiles] */

    /* line captures (Compiled.captures): an application's rays are ray rows app_ray_off[a] .. app_ray_off[a+1];
       a ray's tiles (stepped from the origin; the last one a tile already passed when ray_loop) with the dense
       code each captured tile gets */
    int32_t nrays, nray_tiles;
    int32_t passing;            /* 1: a player without a turn passes while another player has one */
    const int32_t *app_ray_off; /* [napps+1] -> rays */
    const int32_t *app_over;    /* [napps] mask row of the run's codes (0 where the application has no rays) */
    const int32_t *app_until;   /* [napps] mask row of the code closing a run */
    const int32_t *app_need;    /* [napps] runs that must be captured for the application to fit */
    const int32_t *ray_tile_off;/* [nrays+1] -> ray_tiles, ray_code */
    const uint8_t *ray_loop;    /* [nrays] */
    const int32_t *ray_tiles;   /* [nray_tiles] */
    const int32_t *ray_code;    /* [nray_tiles] */

    /* connect end rules (kind 4, ends.connects): end_pmask holds the mask row of the player's states (-1 none);
       conn_bits row (e*np + q) gives each tile's regions as bits, conn_full[e] all of them; nbr lists each
       tile's neighbours through the gluing table */
    int32_t nnbr;
    const int32_t *conn_bits;   /* [nends*np*n] */
    const int32_t *conn_full;   /* [nends] */
    const int32_t *nbr_off;     /* [n+1] -> nbr */
    const int32_t *nbr;         /* [nnbr] */
    const int32_t *end_exact;   /* [nends] 1: a line rule of exactly k: each line is k+2 tiles, the tile beyond each end
                                   (-1 off the board) around its k, and those two must not hold the player's states */

    /* several placements in one turn: conditions on links (chains.py: followed only while their counts hold), and
       keys by changes alone (start and end: the least changed tile) */
    int32_t nlnk_cond;
    int32_t keyed_by_changes;
    const int32_t *lnk_cond_off;/* [nlinks+1] -> lnk_cond (condition ids) */
    const int32_t *lnk_cond;    /* [nlnk_cond] */
    int32_t napp_cond;          /* a move's own count conditions (``if``): the application fits only while they hold */
    const int32_t *app_cond_off;/* [napps+1] -> app_cond (condition ids) */
    const int32_t *app_cond;    /* [napp_cond] */

    /* captures by liberties (Compiled.group_captures): app_gc[a] is -1 or a spec; its masks of the captured
       groups' codes, of liberties and of the mover's pieces, the dense code a captured tile gets, suicide allowed */
    int32_t ngc;
    const int32_t *app_gc;      /* [napps] */
    const int32_t *gc_foe;      /* [ngc] mask rows */
    const int32_t *gc_lib;      /* [ngc] */
    const int32_t *gc_own;      /* [ngc] */
    const int32_t *gc_becomes;  /* [ngc] */
    const int32_t *gc_suicide;  /* [ngc] */

    /* block moves (chains.py): an application of a block move that leaves its block as it was is taken all the same
       and ends the chain; a link with until-line is not followed once the mover has a line of end rule lnk_line[l] */
    const uint8_t *app_block;   /* [napps] 1: a block move (a cell reads another cell) */
    const int32_t *lnk_line;    /* [nlinks] the strict line end rule whose lines stop the link, or -1 */

    /* chain end rules of a move that links nowhere (kind 5): met for a player (end_pmask 1; only the player who
       just moved where end_mover) when whether one of the applications fits, 1 or 0, compares by end_op with
       end_value (gess's "no ring": < 1) */
    int32_t nend_apps;
    const int32_t *end_app_off; /* [nends*np+1] -> end_apps */
    const int32_t *end_apps;    /* [nend_apps] */
    const int32_t *end_op;      /* [nends] */
    const int32_t *end_mover;   /* [nends] */

    /* phases (RuleSet.phases): the entry rows come in nphases + 1 sets, the regular play's first, so that row
       ((s*np + player)*n + tile)*nd + code of ent_off is set s (0 the regular play, 1 + i phase i); phase i lasts
       phase_plies[i] turns, taken by the players phase_order[phase_order_off[i] ..] in turn, and first_player
       plays the first turn after the phases; end_after[e] 1: rule e is read only on a position a turn of the regular
       play reached */
    int32_t nphases, nphase_order, first_player;
    const int32_t *phase_plies;     /* [nphases] */
    const int32_t *phase_order_off; /* [nphases+1] -> phase_order */
    const int32_t *phase_order;     /* [nphase_order] */
    const uint8_t *end_after;       /* [nends] */

    /* moves that may not end a chain (final = false), and passing at any time (pass = "always": the pass is one
       more turn of every unfinished position) */
    const uint8_t *app_final;       /* [napps] 0: a chain ending with this application is not a turn */
    int32_t pass_always;

    /* conditions on lines and on the tile at hand (Compiled.count): cond_here[c] counts only the tile the move
       starts on (a move's condition) or ended on (a link's); cond_line[c] > 0 counts only the tiles on a line of
       that many tiles holding the condition's codes (cond_outside: only those on none), the lines through tile u
       being line set s = cond_lset[c]'s row s*n + u of lset_off -> lset_line (offsets into lset_tiles, cond_line
       tiles each) */
    int32_t nlsets, nlset_line, nlset_tiles;
    const int32_t *cond_line;       /* [nconds] */
    const uint8_t *cond_outside;    /* [nconds] */
    const uint8_t *cond_here;       /* [nconds] */
    const int32_t *cond_lset;       /* [nconds] -1 where cond_line is 0 */
    const int32_t *lset_off;        /* [nlsets*n+1] */
    const int32_t *lset_line;       /* [nlset_line] */
    const int32_t *lset_tiles;      /* [nlset_tiles] */

    /* a slide anywhere after another move (RuleSet.flies_over_stops): a slide may fly over a position the chain
       stopped at, and another move may land where a slide only flew through (step reads this in every rule set; the
       flag keeps the shortcuts that assume no position twice out: once_links, closed_count, cond_leaf) */
    int32_t flies_over;

    /* counters (RuleSet.counters, RuleGame._carry) and the end rules that read them (kind 6: counter end_counter[e]
       compared by end_op with end_value): a turn resets the counters of bits app_reset of its moves (read on every
       chain of its key: where they differ the call fails, TP_ERR_RESET) and code_reset of the piece on its start tile
       before it, and while the phases last those of ctr_after; the others grow by one (a pass grows them all) */
    int32_t nctr, ctr_after;
    const int32_t *app_reset;       /* [napps] */
    const int32_t *code_reset;      /* [nd] */
    const int32_t *end_counter;     /* [nends] -1 where the rule reads no counter */

    /* ways of playing a turn (perft --rbg, tp_perft_ways): a block move is told apart by app_block_sig, the least
       application placing the same writes at the same tile (-1: no block move); with pass_pieces a pass at any
       time is one way per tile holding a code of own_code's row of the player to move (rbg-pass = "pieces") */
    int32_t pass_pieces;
    const int32_t *app_block_sig;   /* [napps] */
    const uint8_t *own_code;        /* [np*nd] */

    /* conditions around a tile and disjunctions (Compiled.count, Compiled.holds): cond_around[c] counts only the
       tiles next to the tile at hand (ar_off -> ar: each tile's distinct neighbours), in the condition's region where
       it has one; a condition of kind 3 holds when one of its alternatives cond_any[cond_any_off[c] ..] does */
    int32_t ncond_any, nar;
    const uint8_t *cond_around;     /* [nconds] */
    const int32_t *cond_any_off;    /* [nconds+1] -> cond_any (condition ids) */
    const int32_t *cond_any;        /* [ncond_any] */
    const int32_t *ar_off;          /* [n+1] -> ar */
    const int32_t *ar;              /* [nar] */

    /* a turn of steps (RuleSet.steps): each application spends app_cost of the turn's budget of `steps` (0: none);
       a follow-up is taken only while it fits in what is left.  Clean-ups after each move (when = "move"): the groups
       mgrp_off[p] .. mgrp_off[p+1] of the grp_ arrays, run after every move of player p */
    int32_t steps;
    const int32_t *app_cost;        /* [napps] */
    const int32_t *mgrp_off;        /* [np+1] -> groups */

    /* anywhere links read through a table (Compiled.link_table): lnk_table[l] is -1 (the link's targets tgt are
       tried one by one) or a table (the link's tgt row is empty), whose row (table*n + tile)*nd + code of ltab_off
       lists the follow-ups placed on that tile whose origin accepts that code */
    int32_t nltab, nltab_app;
    const int32_t *lnk_table;       /* [nlinks] */
    const int32_t *ltab_off;        /* [nltab*n*nd+1] -> ltab_app */
    const int32_t *ltab_app;        /* [nltab_app] */

    /* the maximum rule (RuleSet.maximum, maximum.keep_most): app_max[a] 1 when a's class is one of the rule's; where
       some turn left by the mandatory rule holds such moves, only the turns holding the most of them are legal (a
       turn's count is its chains'; where its chains disagree the call fails, TP_ERR_MAXIMUM: the reference reads the
       count on the route of its least label path, which only the Python walk knows).  In ways mode (perft --rbg,
       play_paths) each way's count is its first chain's. */
    int32_t has_maximum;
    const uint8_t *app_max;         /* [napps] */

    /* label paths (chains.extend_path, path_order), read in chains mode: a path is (separator, tile) pairs, each
       separator its rank among the rule set's separators sorted as strings ("" first, so rank 0; tables.separators);
       app_sep[a] the rank of the separator a's landing tile gets ("x" a capture, "-NAME-" a block move, else "-"),
       sep_comma that of ",", which comes before the origin of a follow-up that moves another piece */
    int32_t nsep, sep_comma;
    const int32_t *app_sep;         /* [napps] */
} tp_tables;

typedef struct tp_engine tp_engine;

int32_t tp_check(const tp_tables *t);
tp_engine *tp_new(const tp_tables *t, int32_t cap_keys, int32_t cap_changes, int32_t cap_undo, int32_t cap_depth,
                  int32_t cap_hash, int32_t cap_chains);
void tp_free(tp_engine *e);
int64_t tp_perft(tp_engine *e, const int32_t *codes, int32_t player, int32_t ply, int32_t depth);
int64_t tp_perft_made(tp_engine *e, const int32_t *codes, int32_t player, int32_t ply, int32_t depth, int32_t made,
                      const int32_t *counters);
int64_t tp_perft_ways(tp_engine *e, const int32_t *codes, int32_t player, int32_t ply, int32_t depth,
                      const int32_t *counters);
int32_t tp_in_check(tp_engine *e, const int32_t *codes, int32_t player);
int32_t tp_playouts(tp_engine *e, const int32_t *codes, int32_t player, int32_t ply, int32_t max_plies, int64_t first,
                    int32_t count, uint64_t seed, int64_t *stats, int32_t *final, const int32_t *counters);
int32_t tp_turns(tp_engine *e, const int32_t *codes, int32_t player, int32_t phase, int32_t chains);
int32_t tp_divide(tp_engine *e, const int32_t *codes, int32_t player, int32_t ply, int32_t depth, int64_t *counts,
                  int32_t cap, const int32_t *counters);
int32_t tp_keys(tp_engine *e, int32_t *out, int32_t cap);
int32_t tp_chains(tp_engine *e, int32_t *out, int32_t cap);
int32_t tp_once_links(const tp_engine *e);
int32_t tp_paired_links(const tp_engine *e);
int32_t tp_quick_follow_ups(const tp_engine *e);
int32_t tp_apart_links(const tp_engine *e);
int64_t tp_apart_replays(const tp_engine *e);
int32_t tp_solos(const tp_engine *e, int32_t mark);
int32_t tp_shut_sets(const tp_engine *e);
int32_t tp_pair_ok(const tp_engine *e);
int32_t tp_raw_ok(const tp_engine *e);
int32_t tp_budget_follow_ups(const tp_engine *e, int32_t left);
