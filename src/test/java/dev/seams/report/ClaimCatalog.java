package dev.seams.report;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The claim ids of CLAIMS.md, in its order, with their titles and the tier that runs them
 * ({@code claims.tsv} beside this class; {@code ClaimCatalogTest} keeps it equal to
 * {@code ../shared/CLAIMS.md}). The report lists every one of them: a claim no test of the run
 * covered is {@link Verdict#NOT_RUN} with {@link Entry#notRunReason()} (CLAIMS.md "Evidence and the report").
 */
public final class ClaimCatalog {

    /** The tier of the default run, {@code mvn verify}. */
    public static final String DEFAULT_TIER = "default";

    /**
     * One claim of CLAIMS.md.
     *
     * @param id    e.g. {@code G3}
     * @param title its title
     * @param tier  {@code default} ({@code mvn verify}) or {@code faults} ({@code mvn verify -Pfaults})
     */
    public record Entry(String id, String title, String tier) {

        /** @return why a run has no entry for this claim */
        public String notRunReason() {
            return DEFAULT_TIER.equals(tier) ? "no test of this run covers it"
                    : "it belongs to the " + tier + " tier, which did not run on this source";
        }
    }

    private final List<Entry> entries;

    private ClaimCatalog(List<Entry> entries) {
        this.entries = List.copyOf(entries);
    }

    /**
     * @return the catalog from {@code claims.tsv}
     * @throws UncheckedIOException if the resource is missing or unreadable
     */
    public static ClaimCatalog load() {
        List<Entry> entries = new ArrayList<>();
        try (InputStream in = ClaimCatalog.class.getResourceAsStream("claims.tsv")) {
            if (in == null) {
                throw new IOException("claims.tsv is not on the class path beside " + ClaimCatalog.class.getName());
            }
            BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                String[] cells = line.split("\t");
                entries.add(new Entry(cells[0], cells[1], cells[2]));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new ClaimCatalog(entries);
    }

    /** @return every claim, in CLAIMS.md order */
    public List<Entry> entries() {
        return entries;
    }

    /**
     * @param entryId a report entry id, e.g. {@code G3[n=51]}
     * @return its claim id, {@code G3}
     */
    public static String claimId(String entryId) {
        int bracket = entryId.indexOf('[');
        return bracket < 0 ? entryId : entryId.substring(0, bracket);
    }

    /** @return report entries in CLAIMS.md order of their claim ids (unknown ids last), then by suffix */
    public Comparator<String> order() {
        List<String> ids = entries.stream().map(Entry::id).toList();
        return Comparator.<String>comparingInt(id -> {
            int i = ids.indexOf(claimId(id));
            return i < 0 ? Integer.MAX_VALUE : i;
        }).thenComparing(id -> id.equals(claimId(id)) ? "" : id);
    }
}
