#!/usr/bin/env bash
# Runs the felt tool as a user would and checks what it prints and how it exits.
# Usage: felt_cli_test.sh PATH/TO/felt
set -u
FELT=${1:?usage: felt_cli_test.sh PATH/TO/felt}
passed=0
failed=0
out=$(mktemp)
err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT

# run ARGS...: runs felt, keeping stdout and stderr; sets $got to the exit status.
run() {
    "$FELT" "$@" >"$out" 2>"$err"
    got=$?
}

# check NAME WANT_STATUS OK: counts the result and shows what felt printed when OK is false.
check() {
    if [ "$3" = true ]; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "FAIL: $1 (exit $got, want $2)"
        echo "  stdout: $(head -c 300 "$out")"
        echo "  stderr: $(head -c 300 "$err")"
    fi
}

# expect NAME STATUS STDOUT_PATTERN -- ARGS...: exit status and a pattern stdout must match.
expect() {
    local name=$1 status=$2 pattern=$3 ok=false
    shift 4
    run "$@"
    [ "$got" -eq "$status" ] && grep -Eq -- "$pattern" "$out" && ok=true
    check "$name" "$status" "$ok"
}

# expect_error NAME STDERR_PATTERN -- ARGS...: exit 2, nothing on stdout, one stderr line matching.
expect_error() {
    local name=$1 pattern=$2 ok=false
    shift 3
    run "$@"
    [ "$got" -eq 2 ] && [ ! -s "$out" ] && [ "$(wc -l <"$err")" -eq 1 ] &&
        grep -Eq -- "$pattern" "$err" && ok=true
    check "$name" 2 "$ok"
}

expect "demo runs" 0 "distinct values: 7462" --
expect "help" 0 "eval" -- --help
expect "eval help" 0 "--wild" -- eval --help

expect "eval royal flush" 0 "^straight_flush [0-9]+$" -- eval As Ks Qs Js Ts
expect "eval concatenated" 0 "^straight_flush" -- eval AsKsQsJsTs
expect "eval commas" 0 "^full_house" -- eval "Kc,Kd,Kh,2s,2d"
expect "eval seven cards" 0 "^flush" -- eval Ah 9h 7h 4h 2h Kc Kd
expect "eval front" 0 '^three_of_a_kind' -- eval 3c 3d 3h
expect "eval json" 0 '^\{"ranking":"standard","category":"four_of_a_kind","value":[0-9]+,"ranks":\["9","2"\],"melds":\{"vertical":"v11111","horizontal":"h41","flush":"f2111"\}\}$' -- eval --json 9c 9d 9h 9s 2d
expect "eval joker" 0 "^five_of_a_kind" -- eval --wild joker Xx As Ad Ac Ah
expect "eval bug" 0 '"category":"one_pair".*"ranks":\["K","A","7","2"\]' -- eval --json --wild bug Xx Kc Kd 7s 2h
expect "eval deuces" 0 "^five_of_a_kind" -- eval --wild deuces 2c 2d 2h 2s As
expect "eval one-eyes" 0 "^five_of_a_kind" -- eval --wild one-eyes Kd Js Jh 9c 9d

expect "compare first" 0 "^first$" -- compare "Ah Ad Kc Qs Jd" "Ah Ad Kc Qs Td"
expect "compare second" 0 "^second$" -- compare "5d 4c 3h 2s Ad" "6d 5c 4h 3s 2d"
expect "compare tie" 0 "^tie$" -- compare "Ah Kh Qh Jh 9h" "As Ks Qs Js 9s"
expect "compare json" 0 '^\{"winner":"first"\}$' -- compare --json "As Ks Qs Js Ts" "Kh Qh Jh Th 9h"
expect "compare sizes" 0 "^second$" -- compare "Ah Ad Kc" "Ah Ad Kc 3s 2d"

expect "distribution 5 text" 0 "four_of_a_kind +624" -- distribution --cards 5
expect "distribution 5 json" 0 '^\{"ranking":"standard","cards":5,"total":2598960,"categories":\{"straight_flush":40,"four_of_a_kind":624,"full_house":3744,"flush":5108,"straight":10200,"three_of_a_kind":54912,"two_pair":123552,"one_pair":1098240,"high_card":1302540\},"distinct_values":7462,"seconds":[0-9.e-]+\}$' -- distribution --ranking standard --cards 5 --json
expect "distribution 7 json" 0 '"total":133784560,"categories":\{"straight_flush":41584,"four_of_a_kind":224848,"full_house":3473184,"flush":4047644,"straight":6180020,"three_of_a_kind":6461620,"two_pair":31433400,"one_pair":58627800,"high_card":23294460\},"distinct_values":4824' -- distribution --cards 7 --json

expect_error "bad card" 'not a card: "Zz"' -- eval As Zz Qs Js Ts
expect_error "duplicate card" "duplicate card: As" -- eval As Ks As Js Ts
expect_error "wrong count" "3, 5, 6 or 7 cards, not 4" -- eval As Ks Qs Js
expect_error "no cards" "cards" -- eval
expect_error "joker without wilds" "not a card" -- eval Xx Ks Qs Js Ts
expect_error "unknown wild" 'unknown wild-card option "sevens"' -- eval --wild sevens As Ks Qs Js Ts
expect_error "unknown ranking" 'unknown ranking "sideways" \(known: standard, vertical, horizontal, flush, pokem, ace-to-five, deuce-to-seven, badugi, short-deck\)' -- eval --ranking sideways As Ks Qs Js Ts
expect_error "unknown option" "--frobnicate" -- eval --frobnicate As Ks Qs Js Ts
expect_error "unknown subcommand" "nonsense" -- nonsense
expect_error "compare bad hand" 'not a card: "Q"' -- compare "As Ks Q Js Ts" "Ah Kh Qh Jh Th"
expect_error "compare one hand" "second" -- compare "As Ks Qs Js Ts"
expect_error "distribution size" "--cards must be 3, 5, 6 or 7" -- distribution --cards 4
expect_error "distribution not a number" "--cards" -- distribution --cards seven
expect_error "distribution ranking" 'unknown ranking "diagonal"' -- distribution --ranking diagonal --cards 5

# Meld rankings and Poke'm (issue 3).
expect "eval vertical" 0 '^v41  \(v41 h2111 f2111\)$' -- eval --ranking vertical Qs Jh Td Tc 9s
expect "eval horizontal" 0 '^h32  \(v11111 h32 f2111\)$' -- eval --ranking horizontal Ks Kh Kd 2c 2s
expect "eval flush json" 0 '^\{"ranking":"flush","category":"f5","strength":"[0-9a-f]+","vertical":"v5","horizontal":"h11111","flush":"f5"\}$' -- eval --json --ranking flush 9s 8s 7s 6s 5s
expect "eval vertical 13 cards" 0 '^v13 ' -- eval --ranking vertical As Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3s 2s
expect "eval stripped deck" 0 '^v8 ' -- eval --ranking vertical --ranks 8 7s 8s 9s Ts Js Qs Ks As
expect "eval eight suits" 0 '^v22 ' -- eval --ranking vertical --copies 8 As Ks Ay Ky
expect "compare vertical v32 over v311" 0 '^first$' -- compare --ranking vertical "4s 3s 2s 7h 6h" "As Ks Qs Ah Ad"
expect "compare vertical sizes" 0 '^first$' -- compare --ranking vertical "9s 8s 7s 6s 2d" "Ks Qs Js 7h 6h 3d 2d"
expect "compare vertical tie" 0 '^\{"winner":"tie"\}$' -- compare --json --ranking vertical "7s 6s 5s Kh Qh" "7d 6c 5h Kc Qd"
expect "compare pokem" 0 '^first$' -- compare --ranking pokem "n1rc n2yt n3gs n4bd n5ph" "n1rc n2yt n3gs n4bd n5pc"
expect "eval pokem" 0 '^triple_perfect:oe\+oe\+oe$' -- eval --ranking pokem n1rc n2yt n3gs n4bd n5ph
expect "distribution vertical 5" 0 "v5 +9216" -- distribution --ranking vertical --cards 5
expect "distribution vertical 8 json" 0 '^\{"ranking":"vertical","ranks":13,"copies":4,"cards":8,"total":752538150,"categories":\{"v8":393216,"v71":' -- distribution --ranking vertical --ranks 13 --copies 4 --cards 8 --json
expect "distribution horizontal" 0 "h41 +624" -- distribution --ranking horizontal --cards 5
expect "distribution flush 20x8" 0 '"total":' -- distribution --ranking flush --ranks 20 --copies 8 --cards 8 --json
expect "distribution pokem" 0 '"total":234531275' -- distribution --ranking pokem --cards 5 --json
expect_error "zero ranks" "1 to 30 ranks, not 0" -- distribution --ranking vertical --ranks 0 --cards 5
expect_error "too many copies" "1 to 8 cards per rank, not 9" -- eval --ranking vertical --copies 9 As
expect_error "more cards than the deck" "cannot come from a deck of 8" -- distribution --ranking vertical --ranks 4 --copies 2 --cards 9
expect_error "card not in the deck" 'not a card: "2s"' -- eval --ranking vertical --ranks 8 2s 7s
expect_error "pokem bad card" "not a Poke'm card" -- eval --ranking pokem n6rc n2yt n3gs n4bd n5ph
expect_error "pokem four cards" "5 cards, not 4" -- eval --ranking pokem n1rc n2yt n3gs n4bd
expect_error "wild with vertical" "--wild applies to the standard ranking only" -- eval --ranking vertical --wild joker As
expect_error "ranks with standard" "--ranks and --copies apply" -- eval --ranks 8 As Ks Qs Js Ts

# Betting games (issue 4).
expect "simulate json" 0 '^\{"hands":2000,"hands_per_second":[0-9.e+]+,"signature":"a67c9baa46d74412","chips_conserved":true,' -- simulate --hands 2000 --seed 1 --json
expect "simulate stud text" 0 "chips conserved: yes" -- simulate --variant stud --structure fixed-limit --players 8 --hands 300
expect "simulate vertical" 0 '"chips_conserved":true' -- simulate --variant shrinking --ranking vertical --players 5 --hands 300 --json
expect_error "simulate unknown variant" 'unknown variant "kuhn"' -- simulate --variant kuhn
expect_error "simulate unknown structure" 'unknown structure "spread-limit"' -- simulate --structure spread-limit
expect_error "simulate too many players" "stud seats 2 to 8 players, not 9" -- simulate --variant stud --players 9
expect_error "simulate pokem" "standard or vertical ranking" -- simulate --ranking pokem

PHH=$(dirname "$0")/../phh
expect "replay hold'em" 0 '^\{"finishing_stacks":\[200,0,100\],"winnings":\[200,0,0\],"finished":true,"undecided":false,"all_in_ev":\{"street":1,"method":"exact","players":\[\{"player":1,"equity":95.657,"expected":191.31,"won":200\},\{"player":2,"equity":4.343,"expected":8.69,"won":0\}\]\}\}$' -- replay --json "$PHH/holdem_nt.phh"
# Hands in the shape of online histories (tests/phh/online_sample.phhs): a summary.
expect "replay phhs" 0 '^\{"files":1,"hands":8,"replayed":7,"failed":0,"undecided":1,"winnings_checked":7,"winnings_mismatches":0,"raked":1,"walks_counting_blind":1,"hands_per_second":[0-9.]+,"failures":\[\],"mismatches":\[\]\}$' -- replay --json "$PHH/online_sample.phhs"
# The folder holds the WSOP 2023 Poker Players Championship's 83 hands too (wsop-2023-43-5/).
expect "replay folder" 0 '^89 files, 96 hands: 95 replayed, 0 failed, 1 undecided$' -- replay "$PHH"
phhs=$(mktemp --suffix=.phhs)
{ sed -n '/^\[1\]/,/^\[2\]/p' "$PHH/online_sample.phhs" | sed '$d'; echo '[9]'; sed -n '/^\[6\]/,/^\[7\]/p' "$PHH/online_sample.phhs" | sed '1d;$d' | sed "s/'p4 cbr 12'/'p4 cbr 7'/"; } >"$phhs"
expect "replay phhs failure" 1 '^  failed: .* \[9\]: action 5 "p4 cbr 7": ' -- replay "$phhs"
one=$(mktemp --suffix=.phh)
sed -n '/^\[4\]/,/^\[5\]/p' "$PHH/online_sample.phhs" | sed '1d;$d' >"$one"
expect "replay decimals and rake" 0 '^finished; stacks \(p1 first\): 57.25 72.25 100$' -- replay "$one"
sed -i 's/winnings = \[14.75, 0, 0\]/winnings = [0, 14.75, 0]/; /finishing_stacks/d' "$one"
expect "replay winnings mismatch" 1 '^winnings \[0, 14.75, 0\] disagree with the engine.s \[15.5, 0, 0\]$' -- replay "$one"
rm -f "$phhs" "$one"
expect "replay stud" 0 "^finished; stacks \(p1 first\): 49 45 56$" -- replay "$PHH/stud_f7s.phh"
expect_error "replay missing file" "cannot read /nonexistent.phh" -- replay /nonexistent.phh
expect_error "replay not toml" "not a PHH file" -- replay "$0"

# The best draw (issue 19): the psychic exercise's royal flush, and the hint's classic play.
expect "draw best" 0 '^\{"throw":\["Qc","Qd","Qs"\],"count":3,"hand":"Th Jh Qh Kh Ah","category":"straight_flush"\}$' -- draw best --json "TH JH QC QD QS" "QH KH AH 2S 6S"
expect "draw best text" 0 '^throw nothing: 5c 6d 7h 8s 9c, straight$' -- draw best --max-discard 1 "5c 6d 7h 8s 9c" "9d 8c 8d 2h 2s"
expect "draw best vertical" 0 '"category":"v' -- draw best --json --ranking vertical "5c 6d 7h 8s 9c" "9d 8c 8d 2h 2s"
expect "draw hint" 0 '^\{"options":\[\{"throw":\["2c"\],"count":1,"expected":0.722684,"draws":47\}\],"ms":' -- draw hint --json --top 1 "Ah Kh Qh Jh 2c"
expect_error "draw best four cards" "a draw hand is five cards, not 4" -- draw best "Ah Kh Qh Jh" "2c 3c 4c 5c 6c"
expect_error "draw best card twice" "Ah is given more often than the deck holds it" -- draw best "Ah Kh Qh Jh 2c" "Ah 3c 4c 5c 6c"
expect_error "draw hint wild on vertical" "--wild applies to the standard ranking only" -- draw hint --ranking vertical --wild joker "Ah Kh Qh Jh 2c"

# Chinese poker (issue 5). expect_stdin NAME STATUS PATTERN JSON -- ARGS...: the document on stdin.
expect_stdin() {
    local name=$1 status=$2 pattern=$3 doc=$4 ok=false
    shift 5
    printf '%s' "$doc" | "$FELT" "$@" >"$out" 2>"$err"
    got=$?
    [ "$got" -eq "$status" ] && grep -Eq -- "$pattern" "$out" && ok=true
    [ "$status" -eq 2 ] && { [ -s "$out" ] || [ "$(wc -l <"$err")" -ne 1 ] || ! grep -Eq -- "$pattern" "$err"; } && ok=false
    [ "$status" -eq 2 ] && [ ! -s "$out" ] && [ "$(wc -l <"$err")" -eq 1 ] && grep -Eq -- "$pattern" "$err" && ok=true
    check "$name" "$status" "$ok"
}
ABC='{"profile":"classic","options":{"chip_limit":false,"aces":false,"unit":1,"rake":0},"dealer":"A","players":[
 {"name":"A","stack":100,"front":"6s 6h 6d","middle":"4s 4h 4d 9c 9d","back":"Ks Kh Kd 8c 8d","declare":null,"surrender":false},
 {"name":"B","stack":100,"front":"As Ah 2c","middle":"Qs Js Ts 9s 2s","back":"7h 7d 7c 7s 3h","declare":null,"surrender":false},
 {"name":"C","stack":100,"front":"Kc Qc 2d","middle":"5c 5d 3c 3d 4c","back":"Ac Ad Qh Qd Jh","declare":null,"surrender":false}]}'
expect_stdin "chinese settle" 0 '"net":\{"A":7,"B":5,"C":-12\},"final_stacks":\{"A":107,"B":105,"C":88\}' "$ABC" -- chinese settle
expect_stdin "chinese settle reasons" 0 '\{"from":"B","to":"A","units":3,"chips":3,"reason":"royalty front three_of_a_kind"\}' "$ABC" -- chinese settle
expect_stdin "chinese settle pairs" 0 '"settled":\[\{"from":"B","to":"A","pass":"rest","units":1,"chips":1\},\{"from":"C","to":"A","pass":"rest","units":6,"chips":6\},' "$ABC" -- chinese settle
expect_stdin "chinese settle edition 1" 0 '"settled":\[\],"net":\{"A":6,"B":-1,"C":-5\}' "$(echo "${ABC/\"chip_limit\":false/\"chip_limit\":true,\"edition\":1}" | sed 's/"stack":100,"front":"Kc/"stack":5,"front":"Kc/')" -- chinese settle
expect_stdin "chinese illegal split" 2 'player B: middle_above_back: the middle \(straight flush, queen high\) ranks above the back \(four sevens\)' "${ABC/Qs Js Ts 9s 2s/Qs Js Ts 9s 8s}" -- chinese settle
expect_stdin "chinese bad card" 2 'player C: back: not a card' "${ABC/Ac Ad/Ac Zz}" -- chinese settle
expect_stdin "chinese malformed" 2 'malformed JSON' '{"profile":' -- chinese settle
expect_stdin "chinese number too large" 2 'malformed JSON: .*number overflow' '{"profile":8888888801010661e5404261897375}' -- chinese settle
expect_stdin "chinese float chips" 2 'malformed document: .*chips must be a whole number, not number' "${ABC/\"unit\":1/\"unit\":1e30}" -- chinese settle
expect_stdin "chinese unknown profile" 2 'unknown profile "vegas"' "${ABC/classic/vegas}" -- chinese settle
expect_stdin "chinese missing field" 2 'player B: missing "stack"' "${ABC/\"stack\":100,\"front\":\"As/\"front\":\"As}" -- chinese settle
OFC='{"players":[{"name":"ann","front":"Ks Kh 2d","middle":"2h 7h 9h Jh Qh","back":"3s 3d 3c 4s 4d","stack":100},{"name":"bob","front":"As Qd Jd","middle":"5s 5c 8d 9c Tc","back":"6s 7s 8s 9s Td"}],"options":{"unit":2}}'
expect_stdin "open-face settle" 0 '^net: ann \+52, bob -52$' "$OFC" -- open-face settle
expect_stdin "open-face settle reasons" 0 '^bob pays ann 8 \(royalty middle flush\)$' "$OFC" -- open-face settle
expect_stdin "open-face settle fantasyland" 0 '^fantasyland: ann 14 cards$' "$OFC" -- open-face settle
expect_stdin "open-face settle json" 0 '"points":\{"ann":26,"bob":-26\},"net":\{"ann":52,"bob":-52\},.*"final_stacks":\{"ann":152\},"fouled":\{"ann":false,"bob":false\},.*"fantasyland":\{"ann":14\}' "$OFC" -- open-face settle --json
expect_stdin "open-face foul" 0 '^ann pays bob 6 \(foul\)$' "${OFC/3s 3d 3c 4s 4d/3s 5d 7c 4s Ad}" -- open-face settle
expect_stdin "open-face progressive" 0 '^fantasyland: ann 15 cards$' "${OFC/\"unit\":2/\"unit\":2,\"progressive\":true}" -- open-face settle
expect_stdin "open-face profile refused" 2 'open-face has no profiles' "${OFC/\"options\"/\"profile\":\"classic\",\"options\"}" -- open-face settle
expect_stdin "open-face bad card" 2 'player bob: back: ' "${OFC/6s 7s/6s Zz}" -- open-face settle
expect_stdin "open-face duplicate" 2 'player bob: Ks was dealt to two players' "${OFC/As Qd Jd/Ks Qd Jd}" -- open-face settle
expect_stdin "open-face malformed" 2 'malformed JSON' '{"players":' -- open-face settle
expect "open-face fantasyland" 0 '^back     As Ks Qs Js Ts$' -- open-face fantasyland As Ah Ad Ac Ks Kh Kd Kc Qs Js Ts 2h 3d 7c
expect "open-face fantasyland json" 0 '^\{"front":"As Ah Kc","middle":"Ad Qd Jd Td 8d","back":"2h 3h 4h 5h 6h","discards":"7s","royalties":\{"front":9,"middle":8,"back":15\},"stays":true,"points":41\}$' -- open-face fantasyland --json --against "Qs Qh 2c / Ks Kh 3d 4d 5d / Ac 9s 9d 9c 8c" As Ah Ad 7s Kc Qd Jd Td 2h 3h 4h 5h 6h 8d
expect "open-face fantasyland progressive" 0 '"discards":"[^"]+ [^"]+ [^"]+"' -- open-face fantasyland --progressive --json As Ah Ad 7s Kc Qd Jd Td 2h 3h 4h 5h 6h 8d 9c 9d
expect_error "open-face fantasyland fifteen" "a Fantasyland hand has 14 cards .*, not 15" -- open-face fantasyland As Ah Ad 7s Kc Qd Jd Td 2h 3h 4h 5h 6h 8d 9c
expect_error "open-face fantasyland clash" "an opponent's rows: Ac is in the hand" -- open-face fantasyland --against "Qs Qh 2c/Ks Kh 3d 4d 5d/Ac 9s 9d 9c 8c" Ac Ah Ad 7s Kc Qd Jd Td 2h 3h 4h 5h 6h 8d
expect_error "open-face fantasyland rows" "three rows, front / middle / back" -- open-face fantasyland --against "Qs Qh 2c" As Ah Ad 7s Kc Qd Jd Td 2h 3h 4h 5h 6h 8d
expect "chinese arrange dragon" 0 'declare complete_straight  expected \+13.000 units' -- chinese arrange As Kd Qc Jh Ts 9s 8d 7c 6h 5s 4d 3c 2h
expect "chinese arrange json" 0 '^\{"front":"[^"]+","middle":"[^"]+","back":"[^"]+","declare":null,"expected_units":[-0-9.e]+\}$' -- chinese arrange --json Ah Ad Kh Kd 7s 7c 5d 4c 9h 2s 3d Qs Jc
expect "chinese arrange hints" 0 '^\{"hints":\[\{.*\},\{.*\},\{.*\}\]\}$' -- chinese arrange --json --hints 3 Ah Ad Kh Kd 7s 7c 5d 4c 9h 2s 3d Qs Jc
expect_error "chinese arrange twelve" "13 cards to arrange, not 12" -- chinese arrange Ah Ad Kh Kd 7s 7c 5d 4c 9h 2s 3d Qs
expect_error "chinese arrange profile" 'unknown profile "vegas"' -- chinese arrange --profile vegas Ah Ad Kh Kd 7s 7c 5d 4c 9h 2s 3d Qs Jc

expect "leap meld spec conjoin" 0 '^\{"valid":true,"leap":2,"length":8,"points":21,"sequence":"3h 5h 7h 9h Jh Kh 2h 4h"\}$' -- leap meld --json 9h 3h Jh 5h 2h Kh 7h 4h
expect "leap meld leap 5 text" 0 '^a meld: leap 5, 8 cards, 21 points$' -- leap meld 4h 9h Ah 6h Jh 3h 8h Kh
expect "leap meld around the corner" 0 '"leap":1,"length":4,"points":3,"sequence":"Qd Kd Ad 2d"' -- leap meld --json 2d Ad Kd Qd
expect "leap meld full cycle" 0 '"leaps":\[1,2,3,4,5,6\]' -- leap meld --json As 2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks
expect "leap meld joker" 0 '^\{"valid":true,"leap":1,"length":3,"points":1,"sequence":"5h 6h Xx"\}$' -- leap meld --json 5h 6h Xx
expect "leap meld colour" 0 '"valid":true' -- leap meld --json --suits colour 5h 6d 7h
expect "leap meld 12 ranks" 0 '"leap":4' -- leap meld --json --ranks 12 1h 5h 9h
expect "leap meld two packs" 0 '"length":14,"points":78' -- leap meld --json --packs 2 Jh Qh Kh Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh
expect "leap meld not a sequence" 1 '^\{"valid":false,"reason":"5h 6h 8h do not run along any leap sequence","error":"not_a_sequence"\}$' -- leap meld --json 5h 6h 8h
expect "leap meld wrong suit" 1 '^not a meld \(wrong_suit\)' -- leap meld 5h 6h 7s
expect "leap meld too short" 1 '"error":"too_short"' -- leap meld --json 5h 6h
expect "leap meld adjacent wilds" 1 '"error":"adjacent_wilds"' -- leap meld --json 5h 6h Xx Xx Xx
expect_error "leap meld bad card" 'not a card: "3x"' -- leap meld Ah 2h 3x
expect_error "leap meld duplicate in one pack" 'duplicate card: Ah' -- leap meld Ah Ah 2h
expect_error "leap meld ranks" 'played with 5, 7, 11, 12, 13 or 17 ranks, not 9' -- leap meld --ranks 9 Ah 2h 3h
expect_error "leap meld suits" '--suits is same, colour or any, not "bogus"' -- leap meld --suits bogus Ah 2h 3h
expect "leap simulate json" 0 '^\{"games":2000,"games_per_second":[0-9.e+]+,"mean_score":[-0-9.e+]+,"signature":"bab3e1dbb9fa419f",' -- leap simulate --players 4 --games 2000 --seed 1 --json
expect "leap simulate text" 0 'games per second' -- leap simulate --players 6 --ranks 17 --jokers 1 --games 200
expect "leap simulate alternative" 0 '"joins":0' -- leap simulate --distinct-leaps --games 300 --json
expect_error "leap simulate players" 'needs 2 to 6 players, not 7' -- leap simulate --players 7
expect_error "leap simulate more players than leaps" '7 ranks have 3 leaps, so at most 3 players, not 4' -- leap simulate --players 4 --ranks 7
expect "leap simulate players by the deck" 0 '^3 players, 7 ranks' -- leap simulate --ranks 7 --games 50
expect "leap simulate distinct more players" 0 '^4 players, 7 ranks' -- leap simulate --distinct-leaps --players 4 --ranks 7 --games 50
expect_error "leap simulate jokers" 'at most 8 jokers in all' -- leap simulate --players 6 --jokers 5

expect_error "bot think not a range" '--think takes MIN-MAX milliseconds \(0 <= MIN <= MAX <= 600000\), not 5-x' -- bot --think 5-x
expect_error "bot think backwards" 'not 4000-1000' -- bot --think 4000-1000
expect_error "bot sources" '--sources takes 1 to 254' -- bot --sources 0
expect_error "bot level" '--level is easy, fair or strong, not "genius"' -- bot --level genius
expect_error "bot personality" '--personality is tight, loose, aggressive or passive, not "sly"' -- bot --level fair --personality sly

expect "health unreachable" 1 '^unreachable: connect: ' -- health http://127.0.0.1:1/healthz
expect_error "health not http" 'the URL must start with http://' -- health https://127.0.0.1:8080/healthz
expect_error "health no host" 'not a URL of the form http://HOST:PORT/PATH: http://:80' -- health http://:80
expect_error "health timeout" '--timeout takes 0 to 600 seconds' -- health --timeout 0 http://127.0.0.1:1

expect "icm the issue's vector" 0 '"icm_equity":\[323.2,278.12,195.79,112.89\],"icm_deal":\[323,278,196,113\],"chip_deal":\[373,271,165,101\]' -- icm --stacks 150000,98750,45500,13250 --prizes 425,280,130,75 --json
expect "icm table" 0 '^4 +13250 +112.89 +113 +101$' -- icm --stacks 150000,98750,45500,13250 --prizes 425,280,130,75
expect_error "icm a stack of none" 'every stack in a deal must be positive' -- icm --stacks 5,0 --prizes 1
expect_error "icm more prizes" 'more prizes than players' -- icm --stacks 5 --prizes 2,1
expect_error "icm eleven" 'a deal is for at most 10 players' -- icm --stacks 1,1,1,1,1,1,1,1,1,1,1 --prizes 1

# felt equity: CandyPoker's vector, the JSON names other programs rely on, the games and errors.
expect "equity vector json" 0 '^\{"game":"holdem","hands":\["AA","QQ","93o"\],"board":"","dead":"","equities":\[70.739,18.304,10.957\],"wins":\[[0-9.,]+\],"ties":\[[0-9.,]+\],"method":"exact","stderr":0.0,"showdowns":592165728.0\}$' -- equity AA QQ 93o --json
expect "equity text" 0 '^QJs +38.586 %' -- equity A2o 88 QJs
expect "equity monte carlo" 0 '"method":"monte-carlo","stderr":0.0[0-9]+' -- equity random random random random --json
expect "equity hi-lo" 0 '"high":\[[0-9.,]+\],"low":\[[0-9.,]+\],"scoop":\[[0-9.,]+\],"method":"exact"' -- equity --game omaha-hilo As2sKhQh AdKd3c4c --board "5s 6h 9c" --json
expect "equity stud" 0 '^monte carlo: [0-9]+ showdowns' -- equity --game stud "AsAh Kd" "QcQd 2h"
expect "equity stud exact" 0 '^exact: 1482 showdowns' -- equity --game stud "AsAh Kd 2c3c4c" "QcQd 2h 5c6c7c" --dead Qs
expect_error "equity one player" 'equity takes 2 to 10 players, not 1' -- equity AA
expect_error "equity bad range" 'player 2: "AKx" is not a range item' -- equity QQ AKx
expect_error "equity duplicate" 'the dead cards: 2c is given twice' -- equity AA KK --board 2c3c4c --dead 2c
expect_error "equity game" 'unknown game "pineapple"' -- equity AA KK --game pineapple
expect_error "equity both methods" 'exclude each other' -- equity AA KK --exact --monte-carlo
# felt duel: the JSON names, a bot against itself at exactly nothing, and its errors.
expect "duel json" 0 '^\{"a":"fair","b":"random","deals":200,"hands":400,"seed":3,"bb_per_100":[0-9.]+,"ci95":\[[0-9.]+,[0-9.]+\],"a_style":\{"vpip":[0-9.]+,"pfr":[0-9.]+,"aggression":[0-9.]+\},"b_style":\{"vpip":[0-9.]+,"pfr":[0-9.]+,"aggression":[0-9.]+\},"seconds":[0-9.]+\}$' -- duel --a fair --b random --hands 200 --seed 3 --json
expect "duel itself" 0 'baseline wins 0.00 bb/100 \(95 % interval 0.00 to 0.00\)' -- duel --a baseline --b baseline --hands 100
expect_error "duel unknown bot" 'unknown bot "genius" \(known: random, calling-station, maniac, nit, shove, baseline, easy, fair, strong\)' -- duel --a genius --b fair --hands 10
expect_error "duel personality" 'unknown personality "sneaky" \(known: tight, loose, aggressive, passive\)' -- duel --a fair --b fair --a-personality sneaky --hands 10
expect "replay all-in ev" 0 '"all_in_ev":\{"street":0,"method":"exact","players":\[\{"player":2,"equity":52.764,"expected":3693498.06,"won":0\},\{"player":5,"equity":47.236,"expected":3306501.94,"won":7000000\}\]\}' -- replay --json "$PHH/wsop_2023_43_5_68.phh"
# felt stats: a walk (the big blind neither had nor took a chance to play), the WSOP day's 83
# hands, a player never seen (zeros), and errors.
walk=$(mktemp --suffix=.phh)
cat >"$walk" <<'PHH'
variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [100, 100, 100]
actions = ['d dh p1 ????', 'd dh p2 ????', 'd dh p3 ????', 'p3 f', 'p1 f']
players = ['Ann', 'Bob', 'Cy']
PHH
expect "stats walk" 0 '"Bob":\{"hands":1,"net":1.0,"bb_per_100":50.0,.*"vpip":\{"times":0,"opportunities":0\}' -- stats --json "$walk"
expect "stats walk text" 0 '^Ann +1 +-1.00 +-50.00 +0.0 +0.0 ' -- stats "$walk"
rm -f "$walk"
expect "stats wsop" 0 '^\{"hands":83,"counted":83,"failed":0,"undecided":0,"players":\{"Brian Rast":\{"hands":83,' -- stats --json --player "Brian Rast" "$PHH/wsop-2023-43-5"
expect "stats nobody" 0 '"Nobody":\{"hands":0,"net":0.0,"bb_per_100":0.0,"bb_per_100_margin":0.0,.*"vpip":\{"times":0,"opportunities":0\}' -- stats --json --player Nobody "$PHH/holdem_nt.phh"
expect_error "stats missing" '/nonexistent.phh: no such file or folder' -- stats /nonexistent.phh

echo "felt cli: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
