package dev.seams.stand;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A second connector beside the shipped one, from the shipped configuration ({@code containers/debezium/
 * orders-connector.json}): on a slot and publication of its own, with its own topic prefix, its order events routed to
 * {@code SLOT.events}, and without the heartbeat (its topic, {@code __debezium-heartbeat.PREFIX}, would be one the
 * stand never created). A claim's twin changes one more setting; a claim that reads its events elsewhere re-routes them.
 */
public final class ConnectorTwin {

    private ConnectorTwin() {
    }

    /**
     * @param shipped the shipped connector's configuration ({@link Stand#connectorConfig()})
     * @param slot    the twin's slot, publication and topic prefix
     * @return a new, modifiable configuration
     */
    public static Map<String, String> of(Map<String, String> shipped, String slot) {
        Map<String, String> twin = new LinkedHashMap<>(shipped);
        twin.keySet().removeIf(k -> k.startsWith("heartbeat."));
        twin.put("slot.name", slot);
        twin.put("publication.name", slot);
        twin.put("topic.prefix", slot);
        twin.put("transforms.route.replacement", events(slot));
        return twin;
    }

    /**
     * What a claim's connector changes of the shipped one, for its evidence.
     *
     * @param shipped the shipped configuration
     * @param used    the configuration the claim registers
     * @return one line per setting that differs, in the order of {@code used} then of the removed ones: {@code key: shipped
     *     value -> used value}, {@code (not set)} for a side without it
     */
    public static java.util.List<String> overrides(Map<String, String> shipped, Map<String, String> used) {
        java.util.List<String> lines = new java.util.ArrayList<>();
        used.forEach((k, v) -> {
            if (!v.equals(shipped.get(k))) {
                lines.add(k + ": " + shipped.getOrDefault(k, "(not set)") + " -> " + v);
            }
        });
        shipped.forEach((k, v) -> {
            if (!used.containsKey(k)) {
                lines.add(k + ": " + v + " -> (not set)");
            }
        });
        return lines;
    }

    /** @return the topic a twin on {@code slot} routes its order events to */
    public static String events(String slot) {
        return slot + ".events";
    }
}
