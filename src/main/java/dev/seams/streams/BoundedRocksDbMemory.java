package dev.seams.streams;

import java.util.Map;
import org.apache.kafka.streams.state.RocksDBConfigSetter;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.Cache;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.WriteBufferManager;

/**
 * ds-streams' RocksDB memory, bounded for the whole process (Kafka Streams' documented "bounded memory" setter,
 * docs "Memory management → RocksDB"): every state store instance shares one block cache of
 * {@value #TOTAL_OFF_HEAP_BYTES} bytes, and their memtables are charged to that cache by one write buffer manager
 * ({@value #TOTAL_MEMTABLE_BYTES} bytes of it); index and filter blocks live in the cache too (high priority). The
 * bound is soft: the cache is not strict (a strict one fails reads when full), so memtables in flight can take it
 * somewhat past its size, and the allocator's own overhead is outside it; claim B16 measures the process's resident
 * memory. Without it each store instance has its own 50 MiB block cache and up to three 16 MiB memtables:
 * ds-streams' two stores on three partitions can take some 600 MiB off the heap, and its resident memory grew past
 * its heap limit + 256 MiB over a fault tier's history (claim B16[100,000-order transaction], docs/findings.md
 * 2026-12-05).
 *
 * <p>Shared by every store of the process (static): Kafka Streams calls {@link #setConfig} once per store instance
 * and {@link #close} when the store closes; the cache and the manager are never closed here, as later stores reuse them.
 */
public final class BoundedRocksDbMemory implements RocksDBConfigSetter {

    /** Bytes of the block cache all stores share, memtables included. */
    public static final long TOTAL_OFF_HEAP_BYTES = 64L << 20;
    /**
     * Bytes of memtables all stores together may hold before RocksDB flushes (charged to the cache): with six store
     * instances (two stores, three partitions) it flushes before each has filled one memtable — smaller L0 files,
     * more compaction, for a bounded process.
     */
    public static final long TOTAL_MEMTABLE_BYTES = 16L << 20;
    /** Bytes of one memtable. */
    public static final long MEMTABLE_BYTES = 4L << 20;
    /** Memtables one store may hold (the active one and those waiting for their flush). */
    public static final int MEMTABLES = 3;
    /** Share of the cache reserved for index and filter blocks. */
    static final double INDEX_FILTER_BLOCK_RATIO = 0.1;

    private static final Cache CACHE = new LRUCache(TOTAL_OFF_HEAP_BYTES, -1, false, INDEX_FILTER_BLOCK_RATIO);
    private static final WriteBufferManager WRITE_BUFFER_MANAGER = new WriteBufferManager(TOTAL_MEMTABLE_BYTES, CACHE);

    /** Called by Kafka Streams (a public no-argument constructor is required). */
    public BoundedRocksDbMemory() {
    }

    @Override
    public void setConfig(String storeName, Options options, Map<String, Object> configs) {
        BlockBasedTableConfig table = (BlockBasedTableConfig) options.tableFormatConfig();
        table.setBlockCache(CACHE);
        table.setCacheIndexAndFilterBlocks(true);
        table.setCacheIndexAndFilterBlocksWithHighPriority(true);
        options.setWriteBufferManager(WRITE_BUFFER_MANAGER);
        options.setWriteBufferSize(MEMTABLE_BYTES);
        options.setMaxWriteBufferNumber(MEMTABLES);
        options.setTableFormatConfig(table);
    }

    @Override
    public void close(String storeName, Options options) {
        // the cache and the write buffer manager are shared by every store of the process: not closed here
    }
}
