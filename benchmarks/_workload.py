"""Fixed workload for count_instructions.sh: nothing, a clone loop, or seeded random playouts (no timing)."""

import random
import sys

import freetrader

game = freetrader.game(sys.argv[1])
seats, what = int(sys.argv[2]), sys.argv[3]
pick = random.Random(0)
state = game.new_state(seats, 1)
for _ in range(40):
    if state.is_over:
        break
    state.apply(pick.choice(state.legal_actions()))
if what == "clone":
    for _ in range(20000):
        state.clone()
elif what == "play":
    for k in range(int(sys.argv[4])):
        st = game.new_state(seats, k)
        while not st.is_over:
            st.apply(pick.choice(st.legal_actions()))
elif what == "steps":
    # A fixed number of random actions over as many seeded games as it takes: comparable per action
    # between trees whose rules (and so whose game lengths) differ.
    left, k = int(sys.argv[4]), 0
    while left > 0:
        st = game.new_state(seats, k)
        k += 1
        while not st.is_over and left > 0:
            st.apply(pick.choice(st.legal_actions()))
            left -= 1
