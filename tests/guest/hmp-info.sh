#!/usr/bin/env bash
# "info atalab" in the HMP monitor shows the model, the cables and, per
# drive, the decoded timing and the violation count of a running guest.
. "$(dirname "$0")/lib.sh"
mon=$WORK/monitor.sock
"$ATALAB" run --quiet --log "$WORK/console.log" --disk "$WORK/disk.img" --disk-size 16M \
	--model ich5 --cable 80 --timeout 120 \
	--qemu-arg -monitor --qemu-arg "unix:$mon,server=on,wait=off" -- \
	sh -c 'pattern-rw /dev/sda 4M 3 && echo ready && sleep 100' \
	>"$WORK/stdout" 2>"$WORK/stderr" &
run=$!
for _ in $(seq 600); do
	grep -q '^ready$' "$WORK/stdout" 2>/dev/null && break
	kill -0 $run 2>/dev/null || break
	sleep 0.1
done
grep -q '^ready$' "$WORK/stdout" || { wait $run || true; fail "guest never got ready: $(cat "$WORK/stderr")"; }
python3 - "$mon" >"$WORK/hmp.txt" <<'PY'
import socket, sys, time
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
s.settimeout(10)
def until_prompt():
    data = b""
    while not data.endswith(b"(qemu) "):
        chunk = s.recv(4096)
        if not chunk:
            break
        data += chunk
    return data.decode(errors="replace")
until_prompt()
s.sendall(b"info atalab\n")
print(until_prompt())
s.sendall(b"quit\n")
PY
wait $run || true
cat "$WORK/hmp.txt"
grep -q 'model ich5, cable0 80, cable1 80, strict off' "$WORK/hmp.txt" || fail "no controller line"
grep -qE '^ *drive0: .*udma.*checks=[1-9][0-9]* violations=0' "$WORK/hmp.txt" || fail "drive0 line lacks the decode or counts"
