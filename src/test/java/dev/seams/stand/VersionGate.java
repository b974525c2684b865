package dev.seams.stand;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The version gate's check (claim B7): does each server of the stand report the version its image
 * tag promises? A profile pins images by tag ({@code containers/images.properties}); the live
 * version is what the running server says ({@link Stand#versions()}). An image whose tag is not a
 * version (the offline substitutes, {@code stand/postgres:offline}) has nothing to compare with.
 */
public final class VersionGate {

    /** Image service → the key of its live version in {@link Stand#versions()}. */
    public static final Map<String, String> LIVE_KEY = orderedLiveKeys();
    /** Verdict: the live version is the tag's. */
    public static final String MATCHES = "matches the tag";
    /** Verdict: the server runs another version than its tag says. */
    public static final String DIFFERS = "DIFFERS from the tag";
    /** Verdict: no version in the tag (a substitute image). */
    public static final String NO_TAG = "no version tag (substitute image)";
    /** Verdict: the live version could not be read. */
    public static final String UNREAD = "live version not read";

    /**
     * One service's check.
     *
     * @param service postgres, kafka, connect or clickhouse
     * @param image   the image the profile runs
     * @param live    the live version ({@link #LIVE_KEY}), {@code unknown...} if not read
     * @param verdict {@link #MATCHES}, {@link #DIFFERS}, {@link #NO_TAG} or {@link #UNREAD}
     */
    public record Check(String service, String image, String live, String verdict) {

        /** @return the check as a report row: service, image, live version, verdict */
        public List<Object> cells() {
            return List.of(service, image, live, verdict);
        }
    }

    private VersionGate() {
    }

    private static Map<String, String> orderedLiveKeys() {
        Map<String, String> keys = new LinkedHashMap<>();
        keys.put("postgres", "postgresql");
        keys.put("kafka", "kafka");
        keys.put("connect", "debezium");
        keys.put("clickhouse", "clickhouse");
        return java.util.Collections.unmodifiableMap(keys);
    }

    /**
     * @param image an image reference, e.g. {@code postgres:15.14} or {@code quay.io/debezium/connect:3.5.0.Final}
     * @return its tag if the tag is a version (starts with a digit), else null
     */
    public static String versionTag(String image) {
        int slash = image.lastIndexOf('/');
        int colon = image.indexOf(':', slash + 1);
        if (colon < 0) {
            return null;
        }
        String tag = image.substring(colon + 1);
        int digest = tag.indexOf('@');
        tag = digest < 0 ? tag : tag.substring(0, digest);
        return !tag.isEmpty() && Character.isDigit(tag.charAt(0)) ? tag : null;
    }

    /**
     * @param tag  a version tag, e.g. {@code 15.14}
     * @param live a live version, e.g. {@code 15.14 (Debian 15.14-1.pgdg13+1)}
     * @return whether the live version is the tag's version: equal, or the tag followed by anything
     *     but a digit or a dot ({@code 15.14} agrees with {@code 15.14 (Debian ...)}, not with {@code 15.141})
     */
    public static boolean agrees(String tag, String live) {
        if (!live.startsWith(tag)) {
            return false;
        }
        if (live.length() == tag.length()) {
            return true;
        }
        char next = live.charAt(tag.length());
        return !Character.isDigit(next) && next != '.';
    }

    /**
     * @param images service → image reference the profile runs
     * @param live   component → live version ({@link Stand#versions()})
     * @return one check per service of {@link #LIVE_KEY}, in that order
     */
    public static List<Check> checks(Map<String, String> images, Map<String, String> live) {
        List<Check> checks = new ArrayList<>();
        LIVE_KEY.forEach((service, key) -> {
            String image = images.get(service);
            String version = live.getOrDefault(key, "unknown");
            String tag = versionTag(image);
            String verdict = version.isBlank() || version.startsWith("unknown") ? UNREAD
                    : tag == null ? NO_TAG
                    : agrees(tag, version) ? MATCHES : DIFFERS;
            checks.add(new Check(service, image, version, verdict));
        });
        return checks;
    }
}
