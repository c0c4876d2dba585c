/* The merchants-cove observation layout (encoder version 1), generated from its
 * declaration by `python -m freetrader.adapters.encoders --headers`: do not edit. */
#ifndef FREETRADER_MC_LAYOUT_H
#define FREETRADER_MC_LAYOUT_H

#define MC_VERSION 1
#define MC_SIZE 1591
#define MC_PHASE 0
#define MC_PHASE_SIZE 22
#define MC_STAGE 22
#define MC_STAGE_SIZE 4
#define MC_SEATS 26
#define MC_SEATS_SIZE 4
#define MC_TABLE 30
#define MC_TABLE_SIZE 4
#define MC_MICE 34
#define MC_MICE_SIZE 12
#define MC_ROGUE 46
#define MC_ROGUE_SIZE 14
#define MC_ROGUES 60
#define MC_ROGUES_SIZE 14
#define MC_SETS 74
#define MC_SETS_SIZE 7
#define MC_BOATS 81
#define MC_BOATS_SIZE 144
#define MC_BSETUP 225
#define MC_BSETUP_SIZE 9
#define MC_PIERS 234
#define MC_PIERS_SIZE 40
#define MC_HALLS 274
#define MC_HALLS_SIZE 9
#define MC_BAG 283
#define MC_BAG_SIZE 15
#define MC_BAY 298
#define MC_BAY_SIZE 10
#define MC_ISLAND 308
#define MC_ISLAND_SIZE 10
#define MC_GREY 318
#define MC_GREY_SIZE 1
#define MC_SQUARE 319
#define MC_SQUARE_SIZE 84
#define MC_UNDER 403
#define MC_UNDER_SIZE 84
#define MC_TFDECK 487
#define MC_TFDECK_SIZE 1
#define MC_CDECK 488
#define MC_CDECK_SIZE 1
#define MC_CDISCARD 489
#define MC_CDISCARD_SIZE 18
#define MC_DRAWN 507
#define MC_DRAWN_SIZE 10
#define MC_CHAL 517
#define MC_CHAL_SIZE 15
#define MC_MINE 532
#define MC_MINE_SIZE 18
#define MC_CLOCK 550
#define MC_CLOCK_COUNT 5
#define MC_CLOCK_STRIDE 6
#define MC_CLOCK_GOLD 0
#define MC_CLOCK_HOUR 1
#define MC_CLOCK_ORDER 2
#define MC_CLOCK_TO_ACT 3
#define MC_CLOCK_TO_SELL 4
#define MC_CLOCK_MARKET_ORDER 5
#define MC_PEDDLER 580
#define MC_PEDDLER_SIZE 23
#define MC_SEAT 603
#define MC_SEAT_COUNT 4
#define MC_SEAT_STRIDE 247
#define MC_SEAT_STATS 0
#define MC_SEAT_ALCHEMIST 52
#define MC_SEAT_BLACKSMITH 98
#define MC_SEAT_CAPTAIN 154
#define MC_SEAT_CHRONOMANCER 175

#endif
