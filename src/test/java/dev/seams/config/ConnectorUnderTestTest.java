package dev.seams.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The connector under test (docs/config.md): the stand's few listed changes, nothing else; NOT_RUN when unreadable. */
class ConnectorUnderTestTest {

    private static final ConnectorUnderTest.StandNames LOCAL = new ConnectorUnderTest.StandNames("postgres", "5432", "test", "secret",
            "test", "seams", "seams_orders", "orders.events");

    @Test
    void theShippedConfigurationIsChangedOnlyInItsConnection() {
        ConnectorUnderTest shipped = ConnectorUnderTest.shipped();
        ConnectorUnderTest.Registered registered = shipped.forStand(LOCAL);

        assertThat(registered.overrides()).extracting(ConnectorUnderTest.Override::key)
                .containsExactly("database.hostname", "database.port", "database.user", "database.password", "database.dbname");
        assertThat(registered.lines()).contains("database.password: (not set) -> ***");
        assertThat(registered.config()).containsAllEntriesOf(shipped.settings());
        assertThat(shipped.notAskable()).isNull();
        assertThat(shipped.notAsGiven(registered, registered.config())).isEmpty();
    }

    @Test
    void aUsersFileKeepsItsSettingsAndGetsTheStandsNamesAndRoute(@TempDir Path dir) throws IOException {
        Path file = Files.writeString(dir.resolve("Inventory Connector.properties"), """
                name=inventory-connector
                connector.class=io.debezium.connector.postgresql.PostgresConnector
                database.hostname=db.prod.internal
                topic.prefix=prod
                schema.include.list=inventory
                slot.name=prod_slot
                snapshot.mode=no_data
                transforms=unwrap
                transforms.unwrap.type=io.debezium.transforms.ExtractNewRecordState
                value.converter=org.apache.kafka.connect.json.JsonConverter
                value.converter.schemas.enable=false
                """);
        System.setProperty(ConnectorUnderTest.PROPERTY, file.toString());
        try {
            ConnectorUnderTest user = ConnectorUnderTest.configured();
            ConnectorUnderTest.Registered registered = user.forStand(LOCAL);

            assertThat(user.name()).isEqualTo("inventory-connector").isEqualTo(ConnectorUnderTest.configuredName());
            assertThat(registered.config()).doesNotContainKeys("name", "schema.include.list")
                    .containsEntry("snapshot.mode", "no_data").containsEntry("topic.prefix", "seams")
                    .containsEntry("slot.name", "seams_orders").containsEntry("table.include.list", "public.orders")
                    .containsEntry("transforms", "unwrap,seams_route")
                    .containsEntry("transforms.seams_route.regex", "\\Qseams\\E\\.public\\.orders")
                    .containsEntry("transforms.seams_route.replacement", "orders.events");
            assertThat(registered.lines()).contains("name: inventory-connector -> (removed)", "topic.prefix: prod -> seams",
                    "schema.include.list: inventory -> (removed)", "transforms: unwrap -> unwrap,seams_route",
                    "database.hostname: db.prod.internal -> postgres");
            assertThat(user.notAskable()).isNull();
            assertThat(user.notAsGiven(registered, registered.config())).isEmpty();
        } finally {
            System.clearProperty(ConnectorUnderTest.PROPERTY);
        }
        assertThat(ConnectorUnderTest.configuredName()).isEqualTo(ConnectorUnderTest.SHIPPED);
    }

    @Test
    void theUsersOwnRouteIsRedirectedNotReplaced() {
        Map<String, String> settings = new LinkedHashMap<>(ConnectorUnderTest.shipped().settings());
        settings.put("transforms.route.replacement", "cdc.orders");
        ConnectorUnderTest.Registered registered = new ConnectorUnderTest("mine", Path.of("mine.json"), settings).forStand(LOCAL);

        assertThat(registered.config()).containsEntry("transforms", settings.get("transforms"))
                .containsEntry("transforms.route.replacement", "orders.events")
                .containsEntry("transforms.route.predicate", "orders");
        assertThat(registered.lines()).contains("transforms.route.replacement: cdc.orders -> orders.events");
    }

    @Test
    void whatDsStreamsCannotReadIsNotAskedAnyClaim() {
        Map<String, String> tutorial = Map.of("connector.class", "io.debezium.connector.postgresql.PostgresConnector",
                "topic.prefix", "dbserver1", "plugin.name", "pgoutput");
        String why = new ConnectorUnderTest("tutorial", Path.of("tutorial.json"), tutorial).notAskable();

        assertThat(why).contains("no io.debezium.transforms.ExtractNewRecordState", "value.converter.schemas.enable is not set (true)");
        Map<String, String> avro = new LinkedHashMap<>(ConnectorUnderTest.shipped().settings());
        avro.put("value.converter", "io.confluent.connect.avro.AvroConverter");
        assertThat(new ConnectorUnderTest("avro", Path.of("avro.json"), avro).notAskable())
                .contains("value.converter io.confluent.connect.avro.AvroConverter writes no JSON");
    }

    @Test
    void aSettingThatDidNotReachConnectAsGivenIsNamed() {
        ConnectorUnderTest shipped = ConnectorUnderTest.shipped();
        ConnectorUnderTest.Registered registered = shipped.forStand(LOCAL);
        Map<String, String> inConnect = new LinkedHashMap<>(registered.config());
        inConnect.remove("skipped.operations");
        inConnect.put("snapshot.mode", "no_data");
        inConnect.put("name", "orders-connector");
        inConnect.put("database.port", "5433");

        assertThat(shipped.notAsGiven(registered, inConnect)).containsExactlyInAnyOrder(
                "database.port: the stand's 5432 -> Connect's 5433", "snapshot.mode: initial -> no_data", "skipped.operations: t -> (not set)");

        java.util.List<ConnectorUnderTest.Override> sneaky = new java.util.ArrayList<>(registered.overrides());
        sneaky.add(new ConnectorUnderTest.Override("heartbeat.action.query", shipped.settings().get("heartbeat.action.query"), null));
        assertThat(shipped.notAsGiven(new ConnectorUnderTest.Registered(registered.config(), sneaky), registered.config()))
                .singleElement().asString().startsWith("heartbeat.action.query: changed by the stand, which may change only");
    }
}
