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
 * The claim ids of docs/claims.md, in its order, with their titles and the tier that runs them
 * ({@code claims.tsv} beside this class; {@code ClaimCatalogTest} keeps it equal to
 * the maintainers' copy of the catalogue). The report lists every one of them: a claim no test of the run
 * covered is {@link Verdict#NOT_RUN} with {@link Entry#notRunReason()} (docs/claims.md "Evidence and the report").
 */
public final class ClaimCatalog {

    /** The tier of the default run, {@code mvn verify}. */
    public static final String DEFAULT_TIER = "default";

    /**
     * One claim of docs/claims.md.
     *
     * @param id         e.g. {@code G3}
     * @param title      its title
     * @param tier       {@code default} ({@code mvn verify}) or {@code faults} ({@code mvn verify -Pfaults})
     * @param notBuiltYet why no test of the project covers it yet (e.g. "not built yet (issue 22): ..."),
     *                   empty for a claim that has its tests
     */
    public record Entry(String id, String title, String tier, String notBuiltYet) {

        /** @return whether the project has a test for this claim */
        public boolean built() {
            return notBuiltYet.isEmpty();
        }

        /** @return why a run has no entry for this claim */
        public String notRunReason() {
            if (!built()) {
                return notBuiltYet;
            }
            return DEFAULT_TIER.equals(tier) ? "no test of this run covers it"
                    : "it belongs to the " + tier + " tier, which did not run on this source";
        }
    }

    /**
     * A report entry a claim owes beyond its id (e.g. one fault of B5's matrix), listed as
     * {@link Verdict#NOT_RUN} with {@code reason} when a run covers the claim but not this entry.
     *
     * @param id     entry id, e.g. {@code B5[cluster-leader-kill]}
     * @param reason why it is missing, e.g. "not built yet: …"
     */
    public record Required(String id, String reason) {
    }

    private final List<Entry> entries;
    private final List<Required> required;

    private ClaimCatalog(List<Entry> entries, List<Required> required) {
        this.entries = List.copyOf(entries);
        this.required = List.copyOf(required);
    }

    /**
     * @return the catalog from {@code claims.tsv}
     * @throws UncheckedIOException if the resource is missing or unreadable
     */
    public static ClaimCatalog load() {
        return new ClaimCatalog(rows("claims.tsv").stream().map(c -> new Entry(c[0], c[1], c[2], c.length > 3 ? c[3] : "")).toList(),
                rows("required-entries.tsv").stream().map(c -> new Required(c[0], c[1])).toList());
    }

    /** @return the tab-separated rows of a resource beside this class, without blank and # lines */
    private static List<String[]> rows(String resource) {
        List<String[]> rows = new ArrayList<>();
        try (InputStream in = ClaimCatalog.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IOException(resource + " is not on the class path beside " + ClaimCatalog.class.getName());
            }
            BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                if (!line.isBlank() && !line.startsWith("#")) {
                    rows.add(line.split("\t"));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return rows;
    }

    /** @return the entries claims owe beyond their ids ({@code required-entries.tsv}) */
    public List<Required> required() {
        return required;
    }

    /** @return every claim, in docs/claims.md order */
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

    /** @return report entries in docs/claims.md order of their claim ids (unknown ids last), then by suffix */
    public Comparator<String> order() {
        List<String> ids = entries.stream().map(Entry::id).toList();
        return Comparator.<String>comparingInt(id -> {
            int i = ids.indexOf(claimId(id));
            return i < 0 ? Integer.MAX_VALUE : i;
        }).thenComparing(id -> id.equals(claimId(id)) ? "" : id);
    }
}
