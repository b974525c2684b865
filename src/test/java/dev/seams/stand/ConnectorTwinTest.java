package dev.seams.stand;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A claim's connector lists what it changed of the shipped one (claim B17's {@code connector_overrides}). */
class ConnectorTwinTest {

    @Test
    void everySettingChangedAddedOrRemovedIsListedAndNothingElse() {
        Map<String, String> shipped = new LinkedHashMap<>(Map.of("slot.name", "seams_orders", "snapshot.mode", "initial",
                "heartbeat.interval.ms", "10000"));
        Map<String, String> used = ConnectorTwin.of(shipped, "seams_snapshot_x");
        used.put("snapshot.mode", "initial");
        used.put("snapshot.select.statement.overrides", "public.orders");

        assertThat(ConnectorTwin.overrides(shipped, used)).containsExactlyInAnyOrder(
                "slot.name: seams_orders -> seams_snapshot_x",
                "publication.name: (not set) -> seams_snapshot_x",
                "topic.prefix: (not set) -> seams_snapshot_x",
                "transforms.route.replacement: (not set) -> seams_snapshot_x.events",
                "snapshot.select.statement.overrides: (not set) -> public.orders",
                "heartbeat.interval.ms: 10000 -> (not set)");
    }
}
