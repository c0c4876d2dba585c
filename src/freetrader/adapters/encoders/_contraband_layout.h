/* The contraband observation layout (encoder version 1), generated from its
 * declaration by `python -m freetrader.adapters.encoders --headers`: do not edit. */
#ifndef FREETRADER_CB_LAYOUT_H
#define FREETRADER_CB_LAYOUT_H

#define CB_VERSION 1
#define CB_SIZE 206
#define CB_PHASE 0
#define CB_PHASE_SIZE 6
#define CB_SEAT_COUNT 6
#define CB_SEAT_COUNT_SIZE 8
#define CB_ROUND 14
#define CB_ROUND_SIZE 1
#define CB_RESHUFFLES 15
#define CB_RESHUFFLES_SIZE 1
#define CB_DECLARATIONS 16
#define CB_DECLARATIONS_SIZE 1
#define CB_UNUSED 17
#define CB_UNUSED_SIZE 1
#define CB_PACK 18
#define CB_PACK_SIZE 1
#define CB_FACE_DOWN 19
#define CB_FACE_DOWN_SIZE 1
#define CB_LUGGAGE 20
#define CB_LUGGAGE_SIZE 1
#define CB_LUGGAGE_CARDS 21
#define CB_LUGGAGE_CARDS_SIZE 1
#define CB_EXAMINED 22
#define CB_EXAMINED_SIZE 1
#define CB_BAG_CLAIMED 23
#define CB_BAG_CLAIMED_SIZE 1
#define CB_MINE_SHOWN 24
#define CB_MINE_SHOWN_SIZE 1
#define CB_I_OFFICER 25
#define CB_I_OFFICER_SIZE 1
#define CB_I_HOLD 26
#define CB_I_HOLD_SIZE 1
#define CB_I_DECLARER 27
#define CB_I_DECLARER_SIZE 1
#define CB_I_ACT 28
#define CB_I_ACT_SIZE 1
#define CB_OVER 29
#define CB_OVER_SIZE 1
#define CB_SEATS 30
#define CB_SEATS_COUNT 8
#define CB_SEATS_STRIDE 17
#define CB_SEATS_CASH 0
#define CB_SEATS_RETIRED 1
#define CB_SEATS_BEEN_OFFICER 2
#define CB_SEATS_OFFICER 3
#define CB_SEATS_HOLDER 4
#define CB_SEATS_DECLARER 5
#define CB_SEATS_TO_ACT 6
#define CB_SEATS_DECLARED 7
#define CB_SEATS_CAUGHT 8
#define CB_SEATS_CLEARED 9
#define CB_SEATS_SEARCHES 10
#define CB_SEATS_WAVED 11
#define CB_SEATS_INFORMS 12
#define CB_SEATS_OWES 13
#define CB_SEATS_OWED 14
#define CB_SEATS_PAY 15
#define CB_SEATS_PAID 16
#define CB_REVEALED 166
#define CB_REVEALED_SIZE 10
#define CB_CLAIMED 176
#define CB_CLAIMED_SIZE 10
#define CB_HELD 186
#define CB_HELD_SIZE 10
#define CB_UNSEEN 196
#define CB_UNSEEN_SIZE 10

#endif
