"""Asks every question of a `ragkit eval --details` file through `ragkit mcp` (stdio, tool rag_query) and compares.

The outside check of issue 23 indexed articles with `ragkit index` and asked through `ragkit mcp`; `ragkit eval`
indexes and asks in one process. This shows both give the same answers on a whole set:

    java -jar rag-cli.jar eval <set> --details eval.jsonl [--embedder <name>]
    # copy the set's documents except the left-out ones (answerable = false) to kept/, then
    java -jar rag-cli.jar index kept --index idx [--embedder <name>]
    python3 mcp_parity.py rag-cli.jar idx eval.jsonl mcp.jsonl

Prints the counts of actions and answer-hits through MCP, and every question whose action or answer text (SourceIds
aside, as the documents' ids differ) is not the one eval recorded.
"""
import json
import re
import subprocess
import sys


def ask_all(jar, index, questions, out):
    server = subprocess.Popen(['java', '-jar', jar, 'mcp', '--index', index, '--backend', 'extractive'],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def call(message):
        server.stdin.write(json.dumps(message) + '\n')
        server.stdin.flush()
        while 'id' in message:
            reply = json.loads(server.stdout.readline())
            if reply.get('id') == message['id']:
                return reply

    call({'jsonrpc': '2.0', 'id': 1, 'method': 'initialize', 'params': {
        'protocolVersion': '2025-06-18', 'capabilities': {}, 'clientInfo': {'name': 'mcp_parity', 'version': '1'}}})
    call({'jsonrpc': '2.0', 'method': 'notifications/initialized'})
    with open(out, 'w') as f:
        for n, q in enumerate(questions):
            reply = call({'jsonrpc': '2.0', 'id': 10 + n, 'method': 'tools/call',
                          'params': {'name': 'rag_query', 'arguments': {'question': q['question']}}})
            f.write(json.dumps({'id': q['id'], 'response': reply['result']['structuredContent']}) + '\n')
    server.stdin.close()
    server.wait()


def plain(text):
    return re.sub(r'\s+', ' ', re.sub(r'\[SourceId: [^\]]*\]', '', text or '')).strip().lower()


def main(jar, index, details, out):
    evaluated = [json.loads(line) for line in open(details)]
    ask_all(jar, index, evaluated, out)
    answered = {r['id']: r['response'] for r in map(json.loads, open(out))}
    counts, differ = {}, []
    for e in evaluated:
        r = answered[e['id']]
        hit = r['action'] == 'CITE' and any(plain(a) in plain(r['answer']) for a in e['answers'])
        kind = 'answerable' if e['answerable'] else 'left out'
        for key in (kind + ' ' + r['action'], kind + ' answer-hit' if hit else None):
            if key:
                counts[key] = counts.get(key, 0) + 1
        if r['action'] != e['action'] or plain(r['answer']) != plain(e['answer']):
            differ.append((e['question'], e['action'], r['action']))
    print(json.dumps(counts, sort_keys=True))
    print(f'{len(differ)} of {len(evaluated)} questions differ from eval')
    for d in differ:
        print('  ', d)


if __name__ == '__main__':
    main(*sys.argv[1:5])
