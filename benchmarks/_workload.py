"""Fixed workload for count_instructions.sh: a clone loop or seeded random playouts (no timing here)."""
import random
import sys

import freetrader

g = freetrader.game(sys.argv[1]); seats = int(sys.argv[2]); what = sys.argv[3]
r = random.Random(0)
s = g.new_state(seats, 1)
for _ in range(40):
    if s.is_over: break
    s.apply(r.choice(s.legal_actions()))
if what == "none":
    pass
elif what == "clone":
    for _ in range(20000): s.clone()
else:
    for k in range(int(sys.argv[4])):
        st = g.new_state(seats, k)
        while not st.is_over:
            st.apply(r.choice(st.legal_actions()))
