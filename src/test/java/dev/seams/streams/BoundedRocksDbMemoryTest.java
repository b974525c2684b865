package dev.seams.streams;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.apache.kafka.streams.state.internals.BlockBasedTableConfigWithAccessibleCache;
import org.junit.jupiter.api.Test;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;

/** ds-streams' RocksDB memory bound (claim B16[100,000-order transaction]), applied to RocksDB's own options. */
class BoundedRocksDbMemoryTest {

    static {
        RocksDB.loadLibrary();
    }

    @Test
    void everyStoreGetsTheSharedCacheAndSmallMemtables() {
        BoundedRocksDbMemory setter = new BoundedRocksDbMemory();
        // the table config Kafka Streams hands to the setter (RocksDBStore), which tells its block cache
        try (Options first = new Options().setTableFormatConfig(new BlockBasedTableConfigWithAccessibleCache());
             Options second = new Options().setTableFormatConfig(new BlockBasedTableConfigWithAccessibleCache())) {
            setter.setConfig("orders-by-id", first, Map.of());
            setter.setConfig("totals-by-customer", second, Map.of());

            for (Options o : new Options[] {first, second}) {
                assertThat(o.writeBufferSize()).isEqualTo(BoundedRocksDbMemory.MEMTABLE_BYTES);
                assertThat(o.maxWriteBufferNumber()).isEqualTo(BoundedRocksDbMemory.MEMTABLES);
                BlockBasedTableConfig table = (BlockBasedTableConfig) o.tableFormatConfig();
                assertThat(table.cacheIndexAndFilterBlocks()).as("index and filter blocks charged to the cache").isTrue();
                assertThat(table.cacheIndexAndFilterBlocksWithHighPriority()).isTrue();
            }
            assertThat(first.writeBufferManager()).as("one write buffer manager for every store").isNotNull()
                    .isSameAs(second.writeBufferManager());
            assertThat(((BlockBasedTableConfigWithAccessibleCache) first.tableFormatConfig()).blockCache())
                    .as("one block cache for every store").isNotNull()
                    .isSameAs(((BlockBasedTableConfigWithAccessibleCache) second.tableFormatConfig()).blockCache());
            assertThat(BoundedRocksDbMemory.TOTAL_MEMTABLE_BYTES).as("memtables are a part of the shared cache")
                    .isLessThan(BoundedRocksDbMemory.TOTAL_OFF_HEAP_BYTES);
            setter.close("orders-by-id", first);   // a store closed (a task migrated) leaves the shared cache usable
            try (Options third = new Options().setTableFormatConfig(new BlockBasedTableConfigWithAccessibleCache())) {
                setter.setConfig("orders-by-id", third, Map.of());
                assertThat(third.writeBufferManager()).isSameAs(second.writeBufferManager());
                assertThat(((BlockBasedTableConfigWithAccessibleCache) third.tableFormatConfig()).blockCache().isOwningHandle())
                        .as("the shared cache still open").isTrue();
            }
        }
    }
}
