"""The browser console at /console, driven in headless Chromium through Selenium.

The flows a person runs (create a table with an index and a stream, add an item as plain JSON,
query it, edit it, run PartiQL, watch the stream, export and import, delete the item and the
table) are asserted on what the page shows and on what boto3 then reads from the server.
Screenshots of each step are saved under .build/console-screenshots/.

Needs Debian's chromium and chromium-driver and Selenium (scripts/bootstrap installs them);
without them every test here is skipped with that reason.
"""

from __future__ import annotations

import datetime
import json
import os
import random
import shutil
import tempfile
import time
import uuid
from pathlib import Path

import boto3
import botocore.auth
import pytest
from botocore.auth import SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials

from conftest import REPO_ROOT, ServerProcess, _resolve_binary
from ddb_helpers import REGION
from ddb_helpers import admin_call as admin

try:
    from selenium import webdriver
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support import expected_conditions as EC
    from selenium.webdriver.support.ui import Select, WebDriverWait
except ImportError:  # pragma: no cover - reported as the skip reason
    webdriver = None

CHROMIUM = shutil.which("chromium")
CHROMEDRIVER = shutil.which("chromedriver")
MISSING = [name for name, found in (("chromium", CHROMIUM), ("chromedriver (chromium-driver)", CHROMEDRIVER),
                                    ("selenium", webdriver)) if not found]
pytestmark = pytest.mark.skipif(bool(MISSING), reason=f"console tests need {', '.join(MISSING)} (scripts/bootstrap installs them)")

SCREENSHOTS = REPO_ROOT / ".build" / "console-screenshots"
WAIT = 10


@pytest.fixture(scope="module")
def browser():
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    downloads = Path(tempfile.mkdtemp(prefix="console-downloads-"))
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1440,900", "--force-device-scale-factor=1", "--lang=en-US"):
        options.add_argument(argument)
    options.add_experimental_option("prefs", {"download.default_directory": str(downloads),
                                              "download.prompt_for_download": False})
    driver = webdriver.Chrome(options=options, service=webdriver.ChromeService(executable_path=CHROMEDRIVER))
    driver.downloads = downloads
    yield driver
    driver.quit()
    shutil.rmtree(downloads, ignore_errors=True)


def open_console(browser, url):
    """Opens the console at `url`, signing with the suite's credentials in the suite's region."""
    browser.get(f"{url}/console")
    namespaces = {"list": [{"label": "tests", "region": REGION, "accessKeyId": "testing", "secretAccessKey": "testing"}],
                  "current": 0}
    browser.execute_script("localStorage.setItem('localdynamo.console.namespaces', arguments[0])", json.dumps(namespaces))
    browser.get(f"{url}/console")
    wait_text(browser, "#status", "in us-east-1")
    return browser


@pytest.fixture
def page(browser, endpoint_url):
    return open_console(browser, endpoint_url)


def wait_text(driver, selector, text, timeout=WAIT):
    """Waits until the element's text contains `text`; fails with what it showed instead."""
    try:
        WebDriverWait(driver, timeout).until(EC.text_to_be_present_in_element((By.CSS_SELECTOR, selector), text))
    except Exception:
        shown = driver.find_element(By.CSS_SELECTOR, selector).text
        errors = [e.text for e in driver.find_elements(By.CSS_SELECTOR, ".error") if e.text]
        status = driver.find_element(By.ID, "status").text
        raise AssertionError(f"{selector} never showed {text!r}; it shows {shown!r} (status {status!r}, errors {errors})") from None


def find(driver, selector):
    return WebDriverWait(driver, WAIT).until(EC.visibility_of_element_located((By.CSS_SELECTOR, selector)))


def shot(driver, name):
    driver.save_screenshot(str(SCREENSHOTS / f"{name}.png"))


def choose(driver, name, value):
    """Clicks the label of a radio button (the segmented controls hide the buttons themselves)."""
    driver.find_element(By.XPATH, f"//input[@name='{name}' and @value='{value}']/..").click()


def fill(element, text):
    element.clear()
    element.send_keys(text)


def set_value(driver, selector, text):
    """Sets a large text field's value at once (send_keys of 400 KB is slow), as a paste would."""
    driver.execute_script("const e = document.querySelector(arguments[0]); e.value = arguments[1]; "
                          "e.dispatchEvent(new Event('input', {bubbles: true}))", selector, text)


def run_builder(driver, action):
    """Runs the builder through `action` and waits until the page shows the new answer."""
    runs = driver.execute_script("return Number(document.querySelector('#results').dataset.runs || 0)")
    action()
    WebDriverWait(driver, WAIT).until(
        lambda d: d.execute_script("return Number(document.querySelector('#results').dataset.runs || 0)") > runs)


def no_horizontal_overflow(driver):
    return driver.execute_script("return document.documentElement.scrollWidth <= window.innerWidth")


def create_table(driver, name, stream=True, gsi=True):
    driver.find_element(By.TAG_NAME, "body").send_keys("c")
    form = find(driver, "#create-form")
    fill(form.find_element(By.NAME, "TableName"), name)
    fill(form.find_element(By.NAME, "pk"), "Artist")
    fill(form.find_element(By.NAME, "sk"), "Song")
    if stream:
        Select(form.find_element(By.NAME, "stream")).select_by_value("NEW_AND_OLD_IMAGES")
    if gsi:
        driver.find_element(By.ID, "add-gsi").click()
        row = find(driver, ".index-row")
        fill(row.find_element(By.NAME, "name"), "bySong")
        fill(row.find_element(By.NAME, "pk"), "Song")
    shot(driver, "02-create-table")
    driver.find_element(By.ID, "create-submit").click()
    wait_text(driver, "#table-name", name)


def test_console_main_flows(page, ddb):
    driver = page
    name = f"Music-{uuid.uuid4().hex[:8]}"
    shot(driver, "01-start")

    # Create a table with a global index and a stream.
    create_table(driver, name)
    wait_text(driver, "#overview", "bySong")
    wait_text(driver, "#table-list", name)
    table = ddb.describe_table(TableName=name)["Table"]
    assert [index["IndexName"] for index in table["GlobalSecondaryIndexes"]] == ["bySong"]
    assert table["StreamSpecification"] == {"StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"}
    shot(driver, "03-overview")

    # Add an item: a DynamoDB JSON mistake is shown inline with its path, then plain JSON saves
    # a 38-digit number exactly.
    driver.find_element(By.CSS_SELECTOR, "[data-tab=items]").click()
    wait_text(driver, "#results", "No items")
    driver.find_element(By.ID, "add-item").click()
    set_value(driver, "#item-text", '{"Artist": {"S": "No One You Know"}, "Song": {"X": "1"}}')
    driver.find_element(By.ID, "item-save").click()
    wait_text(driver, "#item-error", "Song: unknown type")
    shot(driver, "04-item-validation")
    set_value(driver, "#item-text", '{"Artist": {"S": "No One You Know"}, "Song": {"S": "Call Me Today"}, ')
    choose(driver, "format", "plain")
    wait_text(driver, "#item-error", "line 1, column")
    set_value(driver, "#item-text", '{"Artist": {"S": "No One You Know"}, "Song": {"S": "Call Me Today"}}')
    choose(driver, "format", "plain")
    assert json.loads(driver.find_element(By.ID, "item-text").get_attribute("value")) == {
        "Artist": "No One You Know", "Song": "Call Me Today"}
    set_value(driver, "#item-text", json.dumps({"Artist": "No One You Know", "Song": "Call Me Today"})[:-1]
              + ', "Plays": 12345678901234567890123456789012345678, "Tags": ["a", {"b": null}]}')
    driver.find_element(By.ID, "item-save").click()
    wait_text(driver, "#results", "Call Me Today")
    item = ddb.get_item(TableName=name, Key={"Artist": {"S": "No One You Know"}, "Song": {"S": "Call Me Today"}})["Item"]
    assert item["Plays"] == {"N": "12345678901234567890123456789012345678"}
    assert item["Tags"] == {"L": [{"S": "a"}, {"M": {"b": {"NULL": True}}}]}
    ddb.put_item(TableName=name, Item={"Artist": {"S": "No One You Know"}, "Song": {"S": "My Dog Spot"}})

    # Query with a sort key condition, descending: the request and the capacity are shown.
    choose(driver, "mode", "Query")
    fill(find(driver, "input[name=pkValue]"), "No One You Know")
    Select(driver.find_element(By.NAME, "order")).select_by_value("desc")
    driver.find_element(By.ID, "run-builder").click()
    wait_text(driver, "#page-info", "2 items")
    rows = [row.text for row in driver.find_elements(By.CSS_SELECTOR, "#results tbody tr")]
    assert "My Dog Spot" in rows[0] and "Call Me Today" in rows[1]
    Select(driver.find_element(By.NAME, "skOp")).select_by_value("begins_with")
    fill(driver.find_element(By.NAME, "skValue"), "Call")
    run_builder(driver, lambda: driver.find_element(By.NAME, "skValue").send_keys(Keys.CONTROL, Keys.ENTER))
    wait_text(driver, "#page-info", "1 item")
    driver.find_element(By.CSS_SELECTOR, "#request-box summary").click()
    request = driver.find_element(By.ID, "request-json").text
    assert "Query" in request and "#pk = :pk AND begins_with(#sk, :sk)" in request and '"ScanIndexForward": false' in request
    wait_text(driver, "#capacity", "capacity units consumed")
    shot(driver, "05-query")

    # Edit the item from the results.
    driver.find_element(By.CSS_SELECTOR, "#results tbody tr").click()
    editor = find(driver, "#item-text")
    edited = json.loads(editor.get_attribute("value"))
    edited["Plays"] = {"N": "2"}
    set_value(driver, "#item-text", json.dumps(edited, indent=2))
    shot(driver, "06-edit-item")
    editor.send_keys(Keys.CONTROL, Keys.ENTER)
    WebDriverWait(driver, WAIT).until(EC.invisibility_of_element_located((By.ID, "item-dialog")))
    wait_text(driver, "#results", "2N")
    item = ddb.get_item(TableName=name, Key={"Artist": {"S": "No One You Know"}, "Song": {"S": "Call Me Today"}})["Item"]
    assert item["Plays"] == {"N": "2"}

    # PartiQL with a parameter.
    driver.find_element(By.TAG_NAME, "body").send_keys("3")
    statement = find(driver, "#partiql-statement")
    fill(statement, f'SELECT * FROM "{name}" WHERE Artist = ? AND Song = \'My Dog Spot\'')
    fill(driver.find_element(By.ID, "partiql-parameters"), '[{"S": "No One You Know"}]')
    statement.send_keys(Keys.CONTROL, Keys.ENTER)
    wait_text(driver, "#partiql-results", "My Dog Spot")
    assert "Call Me Today" not in driver.find_element(By.ID, "partiql-results").text
    shot(driver, "07-partiql")

    # The stream shows the insert, the second insert and the modification, as they arrived.
    driver.find_element(By.TAG_NAME, "body").send_keys("4")
    WebDriverWait(driver, WAIT).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#stream-records li")) >= 3)
    events = [li.get_attribute("data-event") for li in driver.find_elements(By.CSS_SELECTOR, "#stream-records li")]
    assert events == ["MODIFY", "INSERT", "INSERT"]
    ddb.delete_item(TableName=name, Key={"Artist": {"S": "No One You Know"}, "Song": {"S": "My Dog Spot"}})
    wait_text(driver, "#stream-records li:first-child", "REMOVE")
    shot(driver, "08-stream")

    # Delete the item from the editor (the button asks twice).
    driver.find_element(By.TAG_NAME, "body").send_keys("2")
    choose(driver, "mode", "Scan")
    run_builder(driver, lambda: driver.find_element(By.ID, "run-builder").click())
    wait_text(driver, "#page-info", "1 item")
    driver.find_element(By.CSS_SELECTOR, "#results tbody tr").click()
    find(driver, "#item-delete").click()
    wait_text(driver, "#item-delete", "Confirm delete")
    driver.find_element(By.ID, "item-delete").click()
    wait_text(driver, "#results", "No items")
    assert ddb.scan(TableName=name)["Count"] == 0

    # Delete the table: the button stays disabled until the name is typed.
    driver.find_element(By.ID, "delete-table").click()
    ok = find(driver, "#confirm-ok")
    assert not ok.is_enabled()
    driver.find_element(By.ID, "confirm-typed").send_keys(name)
    shot(driver, "09-delete-table")
    ok.click()
    wait_text(driver, "#status", f"Deleted {name}")
    assert name not in driver.find_element(By.ID, "table-list").text
    assert name not in ddb.list_tables()["TableNames"]


def open_table_tab(driver, name: str, tab_key: str) -> None:
    """Refreshes the table list, opens `name` and switches to the tab of `tab_key` (1–5)."""
    driver.find_element(By.TAG_NAME, "body").send_keys("r")
    wait_text(driver, "#table-list", name)
    driver.find_element(By.CSS_SELECTOR, f"#table-list li[data-table='{name}']").click()
    wait_text(driver, "#table-name", name)
    driver.find_element(By.TAG_NAME, "body").send_keys(tab_key)


def test_console_paging_and_large_items(page, ddb, make_table):
    driver = page
    name = make_table()
    big = "x" * (390 * 1024)
    ddb.put_item(TableName=name, Item={"pk": {"S": "big"}, "blob": {"S": big}, "long-name-" * 20: {"S": "y" * 5000}})
    for n in range(30):
        ddb.put_item(TableName=name, Item={"pk": {"S": f"item-{n:02d}"}, "n": {"N": str(n)}})
    open_table_tab(driver, name, "2")
    wait_text(driver, "#page-info", "page 1 · 25 items")
    seen = {row.find_element(By.CSS_SELECTOR, "td").text.split("\n")[0].rstrip("S").strip()
            for row in driver.find_elements(By.CSS_SELECTOR, "#results tbody tr")}
    assert no_horizontal_overflow(driver), "a long value widened the page"
    shot(driver, "10-large-items")
    driver.find_element(By.ID, "next-page").click()
    wait_text(driver, "#page-info", "page 2 · 6 items")
    seen |= {row.find_element(By.CSS_SELECTOR, "td").text.split("\n")[0].rstrip("S").strip()
             for row in driver.find_elements(By.CSS_SELECTOR, "#results tbody tr")}
    assert len(seen) == 31
    if "big" not in driver.find_element(By.ID, "results").text.split():
        driver.find_element(By.ID, "prev-page").click()
        wait_text(driver, "#page-info", "page 1 · 25 items")
    next(row for row in driver.find_elements(By.CSS_SELECTOR, "#results tbody tr") if row.text.startswith("big")).click()
    editor = find(driver, "#item-text")
    assert big in editor.get_attribute("value")
    assert no_horizontal_overflow(driver)
    wait_text(driver, "#item-size", "KB")
    shot(driver, "11-large-item-editor")
    driver.find_element(By.CSS_SELECTOR, "#item-form button[value=cancel]").click()
    WebDriverWait(driver, WAIT).until(EC.invisibility_of_element_located((By.ID, "item-dialog")))


def test_console_export_and_import(page, ddb, make_table):
    driver = page
    name = make_table()
    for n in range(40):
        ddb.put_item(TableName=name, Item={"pk": {"S": f"k{n}"}, "n": {"N": str(n)}, "ss": {"SS": ["a", "b"]}})
    open_table_tab(driver, name, "5")
    find(driver, "#export-button").click()
    wait_text(driver, "#export-status", "Exported 40 items")
    exported = driver.downloads / f"{name}.jsonl"
    deadline = time.monotonic() + WAIT
    while not exported.exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    lines = exported.read_text().splitlines()
    assert sorted(json.loads(line)["pk"]["S"] for line in lines) == sorted(f"k{n}" for n in range(40))

    # Import into the same table after emptying it: DynamoDB JSON lines, a plain JSON line and a bad line.
    for n in range(40):
        ddb.delete_item(TableName=name, Key={"pk": {"S": f"k{n}"}})
    upload = driver.downloads / "upload.jsonl"
    upload.write_text("\n".join(lines) + '\n{"pk": "plain", "when": 1.5}\n{"pk": {"S": "broken"}\n')
    driver.find_element(By.ID, "import-file").send_keys(str(upload))
    driver.find_element(By.ID, "import-button").click()
    wait_text(driver, "#import-status", "Imported 41 items")
    assert "line 42" in driver.find_element(By.ID, "import-errors").text
    shot(driver, "12-import")
    assert ddb.scan(TableName=name, Select="COUNT")["Count"] == 41
    assert ddb.get_item(TableName=name, Key={"pk": {"S": "k7"}})["Item"]["ss"] == {"SS": ["a", "b"]}
    assert ddb.get_item(TableName=name, Key={"pk": {"S": "plain"}})["Item"]["when"] == {"N": "1.5"}


def test_console_lists_the_tables_bulk_operations(page, ddb, make_table):
    driver = page
    name = make_table()
    arn = ddb.start_bulk_put_items(
        TableName=name, InputS3Configuration={"S3Bucket": "nowhere", "InputFormat": "DYNAMODB_JSON"},
        OutputS3Configuration={"S3Bucket": "nowhere", "OutputType": ["ERROR"]})["BulkOperationDescription"]["BulkOperationArn"]
    deadline = time.monotonic() + WAIT
    # The session's server has no S3: the operation fails in the background, naming the flags.
    while ddb.describe_bulk_operation(BulkOperationArn=arn)["BulkOperationDescription"]["BulkOperationStatus"] == "IN_PROGRESS":
        assert time.monotonic() < deadline
        time.sleep(0.05)
    open_table_tab(driver, name, "5")
    wait_text(driver, "#bulk-list", "FAILED")
    row = find(driver, "#bulk-list li")
    assert row.get_attribute("data-arn") == arn
    assert arn.rsplit("/", 1)[1] in row.text and "S3NoSuchBucket" in row.text and "0 processed" in row.text
    assert not driver.find_elements(By.CSS_SELECTOR, "#bulk-list .bulk-cancel")


def test_console_searches_a_vector_index(page, ddb):
    """The overview shows the table's vector index; the Vectors tab ranks the items nearest a
    pasted vector (EUCLIDEAN: the distance, smallest first) with their scores, filtered by a
    search condition over the index's HASH attribute."""
    driver = page
    name = f"Vectors-{uuid.uuid4().hex[:8]}"
    ddb.create_table(
        TableName=name, BillingMode="PAY_PER_REQUEST",
        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "owner", "AttributeType": "S"}],
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
        VectorIndexes=[{
            "IndexName": "by-embedding", "VectorAttribute": {"AttributeName": "emb"}, "Projection": {"ProjectionType": "ALL"},
            "Dimensions": 2, "DistanceFunction": "EUCLIDEAN",
            "SearchSchema": [{"AttributeName": "owner", "SearchSchemaElementType": "HASH"}]}])
    try:
        points = {"a": (0.0, 0.0), "b": (3.0, 4.0), "c": (1.0, 0.0), "d": (0.0, 2.0), "e": (0.5, 0.5)}
        for key, (x, y) in points.items():
            owner = "bob" if key == "e" else "ada"
            ddb.put_item(TableName=name, Item={"pk": {"S": key}, "owner": {"S": owner},
                                               "emb": {"L": [{"N": repr(x)}, {"N": repr(y)}]}})
        open_table_tab(driver, name, "1")
        card = find(driver, "[data-vector-index='by-embedding']")
        assert "emb · 2 dimensions · EUCLIDEAN" in card.text and "owner (S, HASH)" in card.text
        driver.find_element(By.TAG_NAME, "body").send_keys("6")
        find(driver, "#vector-values").send_keys("[0, 0]")
        driver.find_element(By.ID, "vector-topk").clear()
        driver.find_element(By.ID, "vector-topk").send_keys("3")
        driver.find_element(By.ID, "vector-condition").send_keys("#o = :o")
        driver.find_element(By.ID, "vector-names").send_keys('{"#o": "owner"}')
        driver.find_element(By.ID, "vector-values-map").send_keys('{":o": {"S": "ada"}}')
        driver.find_element(By.ID, "run-vector-search").click()
        wait_text(driver, "#vector-summary", "3 results · ")
        assert "vector search request bytes" in driver.find_element(By.ID, "vector-summary").text
        rows = driver.find_elements(By.CSS_SELECTOR, "#vector-results tbody tr")
        ranked = [(row.find_elements(By.TAG_NAME, "td")[2].text, float(row.find_elements(By.TAG_NAME, "td")[1].text)) for row in rows]
        assert ranked == [("a", 0.0), ("c", 1.0), ("d", 2.0)]
        shot(driver, "14-vector-search")
        # A vector of the wrong length is the server's ValidationException, shown in the tab.
        find(driver, "#vector-values").clear()
        find(driver, "#vector-values").send_keys("[1, 2, 3]")
        driver.find_element(By.ID, "run-vector-search").click()
        WebDriverWait(driver, WAIT).until(EC.visibility_of_element_located((By.ID, "vector-error")))
        assert driver.find_element(By.ID, "vector-error").text
    finally:
        ddb.delete_table(TableName=name)


def test_console_namespaces_keyboard_and_server_errors(page, ddb, endpoint_url):
    driver = page
    body = driver.find_element(By.TAG_NAME, "body")
    name = f"Regional-{uuid.uuid4().hex[:8]}"
    europe = boto3.client("dynamodb", endpoint_url=endpoint_url, region_name="eu-west-1",
                          aws_access_key_id="testing", aws_secret_access_key="testing")
    europe.create_table(TableName=name, BillingMode="PAY_PER_REQUEST",
                        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}])
    try:
        assert name not in driver.find_element(By.ID, "table-list").text

        # A second namespace (another region) from the settings dialog shows that region's tables.
        driver.find_element(By.ID, "open-settings").click()
        form = find(driver, "#settings-form")
        fill(form.find_element(By.NAME, "label"), "europe")
        fill(form.find_element(By.NAME, "region"), "eu-west-1")
        driver.find_element(By.ID, "save-as-new").click()
        wait_text(driver, "#status", "in eu-west-1")
        wait_text(driver, "#table-list", name)
        assert Select(driver.find_element(By.ID, "namespace")).first_selected_option.text.startswith("europe")

        # Keyboard only: filter, move, open, switch tabs.
        body.send_keys("/")
        driver.switch_to.active_element.send_keys(name[:12])
        driver.switch_to.active_element.send_keys(Keys.ARROW_DOWN, Keys.ENTER)
        wait_text(driver, "#table-name", name)
        driver.find_element(By.TAG_NAME, "body").send_keys("2")
        wait_text(driver, "#results", "No items")
        shot(driver, "13-second-namespace")

        # The server's error is shown where the request was made.
        driver.find_element(By.TAG_NAME, "body").send_keys("c")
        form = find(driver, "#create-form")
        fill(form.find_element(By.NAME, "TableName"), name)
        fill(form.find_element(By.NAME, "pk"), "pk")
        form.find_element(By.NAME, "pk").send_keys(Keys.ENTER)  # Enter submits (Cancel is no submit button)
        wait_text(driver, "#create-error", "ResourceInUseException")
        shot(driver, "14-server-error")
        form.find_element(By.CSS_SELECTOR, "button[value=cancel]").click()

        # The request log has the refused call, as sent and as answered.
        driver.find_element(By.TAG_NAME, "body").send_keys("l")
        first = find(driver, "#log-entries li")
        assert "400" in first.text and "CreateTable" in first.text
        first.find_element(By.TAG_NAME, "summary").click()
        assert "ResourceInUseException" in first.text and f'"TableName": "{name}"' in first.text
        shot(driver, "15-request-log")
        driver.find_element(By.CSS_SELECTOR, "#log-dialog button[value=close]").click()

        # Back to the first namespace with n.
        driver.find_element(By.TAG_NAME, "body").send_keys("n")
        wait_text(driver, "#status", "in us-east-1")
        assert name not in driver.find_element(By.ID, "table-list").text
    finally:
        europe.delete_table(TableName=name)


def random_value(rng: random.Random, depth: int = 0) -> dict:
    """A random DynamoDB attribute value of the types plain JSON keeps (no sets, no binary)."""
    kinds = ["S", "N", "BOOL", "NULL"] + (["M", "L"] if depth < 3 else [])
    kind = rng.choice(kinds)
    if kind == "S":
        return {"S": "".join(rng.choice('ab "\\\n\u00e9\u4e2d\U0001f600{}[],:') for _ in range(rng.randint(0, 12)))}
    if kind == "N":
        digits = "".join(rng.choice("0123456789") for _ in range(rng.randint(1, 38))).lstrip("0") or "0"
        if rng.random() < 0.3 and len(digits) > 1:
            cut = rng.randint(1, len(digits) - 1)
            digits = digits[:cut] + "." + digits[cut:].rstrip("0") if digits[cut:].rstrip("0") else digits[:cut]
        return {"N": ("-" if rng.random() < 0.3 and digits != "0" else "") + digits}
    if kind == "BOOL":
        return {"BOOL": rng.random() < 0.5}
    if kind == "NULL":
        return {"NULL": True}
    if kind == "M":
        return {"M": {f"k{n}{rng.choice(['', ' x', '.y'])}": random_value(rng, depth + 1) for n in range(rng.randint(0, 4))}}
    return {"L": [random_value(rng, depth + 1) for _ in range(rng.randint(0, 4))]}


def test_console_item_json_round_trips_seeded(page):
    """Random items (seeded) survive DynamoDB JSON -> plain JSON text -> DynamoDB JSON in the page's
    own parser and converters, numbers digit for digit; a broken value is refused with its path."""
    rng = random.Random(20261125)
    items = [{f"a{n}": random_value(rng) for n in range(rng.randint(1, 6))} for _ in range(300)]
    results = page.execute_async_script("""
        const [items, done] = arguments;
        import('/console/json.js').then((j) => items.map((item) => {
          const plain = j.stringify(Object.fromEntries(Object.entries(item).map(([k, v]) => [k, j.toPlain(v)])));
          const back = j.itemFromPlain(j.parseJSON(plain));
          const checked = j.toWire(j.checkItem(j.parseJSON(JSON.stringify(item))));
          let refused = null;
          try { j.checkItem({...item, broken: {"N": "1e"}}); } catch (e) { refused = e.message; }
          return {back, checked, refused};
        })).then(done, (e) => done(String(e)));
    """, items)
    assert isinstance(results, list), results
    for item, result in zip(items, results):
        assert result["back"] == item
        assert result["checked"] == item
        assert result["refused"].startswith("broken: N takes a number")


@pytest.mark.parametrize("digests", ["webcrypto", "plain"])
def test_console_signs_like_botocore(page, monkeypatch, digests):
    """The page's SigV4 signature equals botocore's for the same request and time, with
    WebCrypto and with the plain JavaScript digests used outside a secure context."""
    body = json.dumps({"TableName": "Music", "Item": {"pk": {"S": "é" * 300}}}, ensure_ascii=False)  # UTF-8, several blocks
    signed = page.execute_async_script("""
        const [body, plain, done] = arguments;
        import('/console/api.js').then((api) => {
          if (plain) api.usePlainDigests();
          return api.sign({
            host: '127.0.0.1:8000', target: 'DynamoDB_20120810.PutItem', body,
            credentials: {accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY', region: 'eu-west-1'},
            now: new Date(Date.UTC(2026, 0, 2, 3, 4, 5))});
        }).then(done, (e) => done(String(e)));
    """, body, digests == "plain")
    request = AWSRequest(method="POST", url="http://127.0.0.1:8000/", data=body.encode(), headers={
        "Content-Type": "application/x-amz-json-1.0", "X-Amz-Target": "DynamoDB_20120810.PutItem"})
    monkeypatch.setattr(botocore.auth, "get_current_datetime", lambda: datetime.datetime(2026, 1, 2, 3, 4, 5))
    auth = SigV4Auth(Credentials("AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"), "dynamodb", "eu-west-1")
    auth.add_auth(request)
    assert signed["authorization"] == request.headers["Authorization"], (signed, dict(request.headers))
    page.get(page.current_url)  # the next test gets WebCrypto back


def test_console_files_are_served_with_their_types(endpoint_url):
    import urllib.request

    for path, kind in (("/console", "text/html"), ("/console/", "text/html"), ("/console/app.js", "text/javascript"),
                       ("/console/console.css", "text/css")):
        with urllib.request.urlopen(endpoint_url + path) as response:
            assert response.status == 200
            assert response.headers["Content-Type"].startswith(kind)
            assert "default-src 'self'" in response.headers["Content-Security-Policy"]
    try:
        urllib.request.urlopen(endpoint_url + "/console/missing.js")
        raise AssertionError("a missing console file answered 200")
    except urllib.error.HTTPError as error:
        assert error.code == 404


@pytest.mark.skipif(bool(os.environ.get("LOCALDYNAMO_ENDPOINT")), reason="moves the clock of a server of its own")
def test_console_stream_survives_an_expired_iterator(browser):
    """Shard iterators live 15 minutes of the server's clock: after the clock moves past that the
    page takes a new iterator after the last record it showed, so it neither stops nor repeats."""
    server = ServerProcess(_resolve_binary(), ["--in-memory"])
    url = server.start()
    try:
        client = boto3.client("dynamodb", endpoint_url=url, region_name=REGION,
                              aws_access_key_id="testing", aws_secret_access_key="testing")
        client.create_table(TableName="Feed", BillingMode="PAY_PER_REQUEST",
                            AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                            KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                            StreamSpecification={"StreamEnabled": True, "StreamViewType": "NEW_IMAGE"})
        client.put_item(TableName="Feed", Item={"pk": {"S": "first"}})
        open_console(browser, url)
        browser.find_element(By.CSS_SELECTOR, "#table-list li[data-table='Feed']").click()
        wait_text(browser, "#table-name", "Feed")
        browser.find_element(By.TAG_NAME, "body").send_keys("4")
        wait_text(browser, "#stream-records", "first")
        status, _ = admin(url, "POST", "/_localdynamo/clock", {"advanceSeconds": 16 * 60})
        assert status == 200
        client.put_item(TableName="Feed", Item={"pk": {"S": "second"}})
        wait_text(browser, "#stream-records li:first-child", "second")
        keys = [li.find_element(By.TAG_NAME, "code").text for li in browser.find_elements(By.CSS_SELECTOR, "#stream-records li")]
        assert keys == ['{"pk":"second"}', '{"pk":"first"}']
    finally:
        server.stop()
