/* The precious-cargo observation layout (encoder version 1), generated from its
 * declaration by `python -m freetrader.adapters.encoders --headers`: do not edit. */
#ifndef FREETRADER_PC_LAYOUT_H
#define FREETRADER_PC_LAYOUT_H

#define PC_VERSION 1
#define PC_SIZE 452
#define PC_PHASE 0
#define PC_PHASE_SIZE 8
#define PC_TURN 8
#define PC_TURN_SIZE 1
#define PC_TARGET 9
#define PC_TARGET_SIZE 1
#define PC_BANK 10
#define PC_BANK_SIZE 1
#define PC_ACTIONS_LEFT 11
#define PC_ACTIONS_LEFT_SIZE 1
#define PC_FIRST_ME 12
#define PC_FIRST_ME_SIZE 1
#define PC_FIRST_OTHER 13
#define PC_FIRST_OTHER_SIZE 1
#define PC_FIRST_NONE 14
#define PC_FIRST_NONE_SIZE 1
#define PC_USED 15
#define PC_USED_SIZE 6
#define PC_LOADING 21
#define PC_LOADING_SIZE 4
#define PC_SELLING 25
#define PC_SELLING_SIZE 9
#define PC_PLAYERS 34
#define PC_PLAYERS_COUNT 2
#define PC_PLAYERS_STRIDE 14
#define PC_PLAYERS_COUNTRY 0
#define PC_PLAYERS_HOME 3
#define PC_PLAYERS_COINS 12
#define PC_PLAYERS_GOVERNORS_LEFT 13
#define PC_SETTLEMENTS 62
#define PC_SETTLEMENTS_COUNT 8
#define PC_SETTLEMENTS_STRIDE 13
#define PC_SETTLEMENTS_GOVERNOR 0
#define PC_SETTLEMENTS_WANTS 3
#define PC_SETTLEMENTS_MY_SHIPS 11
#define PC_SETTLEMENTS_OTHER_SHIPS 12
#define PC_SHIPS 166
#define PC_SHIPS_COUNT 6
#define PC_SHIPS_STRIDE 46
#define PC_SHIPS_BUILT 0
#define PC_SHIPS_PLACE 1
#define PC_SHIPS_SAILS 30
#define PC_SHIPS_MOVES_LEFT 31
#define PC_SHIPS_CRATES 32
#define PC_SUPPLY 442
#define PC_SUPPLY_SIZE 8
#define PC_FACE_DOWN 450
#define PC_FACE_DOWN_SIZE 2

#endif
