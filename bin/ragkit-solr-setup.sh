#!/usr/bin/env bash
# Creates RagKit's collection on a production SolrCloud cluster from the config set in rag-store-solr's jar.
#
#   bin/ragkit-solr-setup.sh <rag-store-solr.jar> <zk-host:port[/chroot]> <solr-base-url> <collection> <dimension> [shards] [replicas]
#
# Needs: unzip, sed, curl, and Solr's own bin/solr on the PATH (for "solr zk upconfig").
# Example: bin/ragkit-solr-setup.sh rag-store-solr/target/rag-store-solr-0.1.0-SNAPSHOT.jar zk1:2181 http://solr1:8983/solr ragkit 384 2 2
set -euo pipefail
if [ $# -lt 5 ]; then
  sed -n '2,8p' "$0"; exit 2
fi
jar=$1 zk=$2 solr=$3 collection=$4 dimension=$5 shards=${6:-2} replicas=${7:-2}
case "$dimension" in ''|*[!0-9]*) echo "dimension must be a whole number, got '$dimension'" >&2; exit 2;; esac
conf=$(mktemp -d)
trap 'rm -rf "$conf"' EXIT
unzip -p "$jar" dev/ragkit/store/solr/configset/solrconfig.xml > "$conf/solrconfig.xml"
unzip -p "$jar" dev/ragkit/store/solr/configset/schema.xml | sed "s/@DIMENSION@/$dimension/" > "$conf/schema.xml"
solr zk upconfig -n "$collection" -d "$conf" -z "$zk"
curl -fsS "$solr/admin/collections?action=CREATE&name=$collection&collection.configName=$collection&numShards=$shards&replicationFactor=$replicas&wt=json"
echo
echo "created collection '$collection' ($shards shards x $replicas replicas, vectors of $dimension dimensions)"
echo "use it with: StoreProviders.load(\"solr\", Map.of(\"zk-hosts\", \"$zk\", \"collection\", \"$collection\", \"dimension\", \"$dimension\"))"
