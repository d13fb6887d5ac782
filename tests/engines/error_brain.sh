#!/bin/sh
# A Gomocup brain that behaves like some real ones when a line reaches them
# while they finish their turn: before each move it prints an ERROR line
# about the INFO it read too early. The brain itself is `banyan gomocup`
# (its path is $1); the ERROR lines are added on its way out, unbuffered.
"$1" gomocup --playouts 200 | sed -u -E 's/^([0-9]+,[0-9]+)/ERROR Unknown command: TIMEOUT_TURN\n\1/'
