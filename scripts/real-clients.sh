#!/usr/bin/env bash
# Runs the aggregator's real PHP SDK (apiship/apiship-sdk-php, not shipped with ShipDesk) against
# `npm run serve`, with both of its adapters: the token adapter and the default login adapter (POST /login).
#
#   scripts/real-clients.sh <sdk-folder>
#
# Needs PHP 8 with Guzzle 7 (Debian: php-cli php-curl php-guzzlehttp-guzzle …, found on PHP's include path);
# the SDK's own composer autoloader is not needed. Prints one line per SDK method and the totals; exits 1
# if any method failed. Not part of `npm test`.
set -euo pipefail

sdk="${1:?usage: scripts/real-clients.sh <sdk-folder>}"
[ -f "$sdk/src/Apiship.php" ] || { echo "$sdk is not the SDK (no src/Apiship.php)" >&2; exit 2; }
sdk="$(cd "$sdk" && pwd)"
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
port="$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")"
token="real-clients-$(date +%s)"
login="real-clients"
password="real-clients-password-$$"

cleanup() {
  [ -n "${server:-}" ] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

(cd "$root" && exec npm run --silent serve -- --port "$port" --data-dir "$work/data" --token "$token" --login "$login:$password") >"$work/serve.log" 2>&1 &
server=$!
for _ in $(seq 1 120); do
  curl -sf "http://127.0.0.1:$port/v1/openapi.json" >/dev/null 2>&1 && break
  kill -0 "$server" 2>/dev/null || { cat "$work/serve.log" >&2; exit 1; }
  sleep 0.5
done

cat >"$work/run.php" <<'PHP'
<?php
// The SDK's classes by PSR-4 from its src/, Guzzle from PHP's include path (the Debian packages).
require_once 'GuzzleHttp/autoload.php';
spl_autoload_register(function ($class) {
    $prefix = 'Apiship\\';
    if (strncmp($class, $prefix, strlen($prefix)) === 0) {
        $file = getenv('SDK_DIR') . '/src/' . str_replace('\\', '/', substr($class, strlen($prefix))) . '.php';
        if (is_file($file)) require $file;
    }
});

use Apiship\Adapter\GuzzleAdapter;
use Apiship\Adapter\GuzzleTokenAdapter;
use Apiship\Apiship;
use Apiship\Entity\Request\CalculatorRequest;
use Apiship\Entity\Request\CourierCallRequest;
use Apiship\Entity\Request\CreateOrderRequest;
use Apiship\Entity\Request\Part\Calculator\From;
use Apiship\Entity\Request\Part\Calculator\Place as CalculatorPlace;
use Apiship\Entity\Request\Part\Calculator\To;
use Apiship\Entity\Request\Part\Orders\Cost;
use Apiship\Entity\Request\Part\Orders\ExtraParam;
use Apiship\Entity\Request\Part\Orders\Item;
use Apiship\Entity\Request\Part\Orders\Order;
use Apiship\Entity\Request\Part\Orders\Recipient;
use Apiship\Entity\Request\Part\Orders\Sender;
use Apiship\Exception\ResponseException;

error_reporting(E_ALL);
set_error_handler(function ($no, $message, $file, $line) { throw new ErrorException($message, 0, $no, $file, $line); });

$base = getenv('BASE_URL');
$passed = 0;
$failed = 0;

function check($name, callable $call) {
    global $passed, $failed;
    try {
        $detail = $call();
        $passed++;
        printf("ok    %-44s %s\n", $name, $detail);
    } catch (ResponseException $e) {
        $failed++;
        printf("FAIL  %-44s %s %s %s\n", $name, $e->getErrorApishipCode(), $e->getErrorMessage(), $e->getErrorDescription());
    } catch (Throwable $e) {
        $failed++;
        printf("FAIL  %-44s %s: %s\n", $name, get_class($e), $e->getMessage());
    }
}

function expect($condition, $what) {
    if (!$condition) throw new RuntimeException("expected $what");
}

function orderRequest($clientNumber) {
    // As the SDK's examples/order/test_create_order.php builds it: top-level items, postIndex, comments,
    // pickupDate, paymentMethod, extraParams as key/value; the data of ShipDesk's sandbox service.
    $order = (new Order())
        ->setProviderKey('sandbox-express')->setClientNumber($clientNumber)->setDescription('Очень важный заказ')
        ->setHeight(10)->setLength(30)->setWidth(20)->setWeight(1200)
        ->setPickupType(1)->setDeliveryType(1)->setTariffId(103)
        ->setPickupDate(date('Y-m-d', strtotime('+1 day')))->setDeliveryTimeStart('10:00')->setDeliveryTimeEnd('18:00')->setPaymentMethod(1);
    $sender = (new Sender())
        ->setPostIndex('101000')->setCountryCode('RU')->setCity('Москва')->setStreet('Тверская')->setHouse('7')
        ->setCompanyName('ООО "Ромашка"')->setContactName('Иван Петров')->setPhone('79161234567')->setEmail('info@example.ru')->setComment('Звонить заранее');
    $recipient = (new Recipient())
        ->setPostIndex('190000')->setCountryCode('RU')->setCity('Санкт-Петербург')->setStreet('Невский проспект')->setHouse('28')->setOffice('5')
        ->setContactName('Анна Смирнова')->setPhone('79219876543')->setEmail('anna@example.ru')->setComment('Домофон 5');
    $cost = (new Cost())->setAssessedCost(2500)->setDeliveryCost(490.5)->setCodCost(2990.5)->setIsDeliveryPayedByRecipient(true);
    $items = [
        (new Item())->setArticul('TS-01')->setDescription('Футболка')->setQuantity(2)->setAssessedCost(1000)->setCost(1000)->setWeight(300)->setMarkCode('010460043993125621JgXJ5.T'),
        (new Item())->setArticul('CP-02')->setDescription('Кепка')->setQuantity(1)->setAssessedCost(500)->setCost(500)->setWeight(200),
    ];
    return (new CreateOrderRequest())->setOrder($order)->setCost($cost)->setRecipient($recipient)->setSender($sender)->setItems($items)
        ->addExtraParam((new ExtraParam())->setKey('insurance')->setValue('1'));
}

/** The SDK's methods, as its examples use them. */
function exercise($label, Apiship $api) {
    $run = $label . '-' . getmypid() . '-' . mt_rand(1000, 9999);
    $orders = $api->orders();
    $lists = $api->lists();

    check("$label lists()->getProviders", function () use ($lists) {
        $r = $lists->getProviders(20, 0);
        expect(count($r->getResults()) > 0, 'delivery services');
        return count($r->getResults()) . ' services';
    });
    check("$label lists()->getPoints", function () use ($lists) {
        $r = $lists->getPoints(5, 0, 'city=Москва;availableOperation=[2,3]');
        expect(count($r->getResults()) > 0, 'points in Москва');
        $p = $r->getResults()[0];
        return count($r->getResults()) . " points, first {$p->getId()} {$p->getAddress()}";
    });
    check("$label lists()->getPointTypes", function () use ($lists) {
        $r = $lists->getPointTypes();
        return count($r->getResults()) . ' types';
    });
    check("$label lists()->getServices", function () use ($lists) {
        $r = $lists->getServices('sandbox-express');
        expect(count($r->getResults()) > 0, 'additional services of sandbox-express');
        foreach ($r->getResults() as $s) expect($s->getProviderKey() === 'sandbox-express', 'only sandbox-express');
        return count($r->getResults()) . ' services';
    });
    check("$label calculator()->calculate", function () use ($api) {
        $request = (new CalculatorRequest())
            ->setFrom((new From())->setCity('Москва')->setRegion('Москва')->setCountryCode('RU'))
            ->setTo((new To())->setCity('Санкт-Петербург')->setRegion('Санкт-Петербург')->setCountryCode('RU'))
            ->setAssessedCost(100.6)->setCodCost(0)->setDeliveryTypes([1])->setPickupTypes([1])->setIncludeFees(true)->setProviderKeys([])
            ->addPlace((new CalculatorPlace())->setWeight(1500)->setWidth(25)->setHeight(20)->setLength(30));
        $r = $api->calculator()->calculate($request);
        $tariffs = 0;
        foreach ($r->getDeliveryToDoor() as $item) $tariffs += count($item->getTariffs());
        expect($tariffs > 0, 'door tariffs (providerKeys: [] restricts nothing)');
        return "$tariffs door tariffs";
    });

    $created = null;
    check("$label orders()->create", function () use ($orders, $run, &$created) {
        $r = $orders->create(orderRequest("$run-A"));
        expect((int)$r->getOrderId() > 0, 'orderId');
        $created = $r->getOrderId();
        return "orderId $created";
    });
    $synced = null;
    check("$label orders()->createSync", function () use ($orders, $run, &$synced) {
        $r = $orders->createSync(orderRequest("$run-B"));
        expect($r->getProviderNumber() !== '', 'providerNumber');
        $synced = $r->getOrderId();
        return "orderId $synced, providerNumber {$r->getProviderNumber()}";
    });
    check("$label orders()->getOrderInfo", function () use ($orders, &$created) {
        $r = $orders->getOrderInfo($created);
        expect($r->getOrder()->getDescription() === 'Очень важный заказ', 'order.description back');
        expect($r->getSender()->getPostIndex() === '101000', 'sender.postIndex back');
        expect(count($r->getExtraParams()) === 1 && $r->getExtraParams()[0]->getKey() === 'insurance', 'extraParams [{key,value}] back');
        return "clientNumber {$r->getOrder()->getClientNumber()}, pickupDate {$r->getOrder()->getPickupDate()}";
    });
    check("$label orders()->update", function () use ($orders, $run, &$created) {
        $r = $orders->update($created, orderRequest("$run-A"));
        expect((string)$r->getOrderId() === (string)$created, 'orderId in the answer');
        return 'orderId ' . $r->getOrderId();
    });
    check("$label orders()->resend", function () use ($orders, &$created) {
        $r = $orders->resend($created);
        return "orderId {$r->getOrderId()}, created {$r->getCreated()}";
    });
    check("$label orders()->getStatusByOrderId", function () use ($orders, &$synced) {
        $r = $orders->getStatusByOrderId($synced);
        return $r->getStatus()->getKey();
    });
    check("$label orders()->getStatusByClientNumber", function () use ($orders, $run) {
        $r = $orders->getStatusByClientNumber("$run-B");
        return $r->getStatus()->getKey();
    });
    check("$label orders()->getStatuses", function () use ($orders, &$created, &$synced) {
        $r = $orders->getStatuses([$created, $synced, 999999999]);
        expect(count($r->getSucceedOrders()) === 2 && count($r->getFailedOrders()) === 1, '2 found, 1 failed');
        return '2 found, 1 failed';
    });
    check("$label orders()->getStatusesByDate", function () use ($orders) {
        $r = $orders->getStatusesByDate(date('Y-m-d\TH:i:sP', time() - 3600));
        return count($r->getOrders()) . ' orders';
    });
    check("$label orders()->getStatusHistory", function () use ($orders, &$synced) {
        $r = $orders->getStatusHistory($synced);
        expect(count($r->getRows()) >= 2, 'uploading and uploaded');
        return count($r->getRows()) . ' statuses';
    });
    check("$label orders()->getStatusHistoryByDate", function () use ($orders) {
        $r = $orders->getStatusHistoryByDate(date('Y-m-d'), 10, 0);
        return count($r->getRows()) . ' orders, total ' . $r->getMeta()->getTotal();
    });
    check("$label orders()->getWaybills", function () use ($orders, &$synced) {
        $r = $orders->getWaybills([(int)$synced, 999999]);
        expect(count($r->getWaybillItems()) === 1, 'one act for the one service');
        // WaybillItem::$orderIds and FailedOrder::$orderId are declared int in the SDK.
        expect($r->getWaybillItems()[0]->getOrderIds() === [(int)$synced], 'orderIds are the ints asked for');
        expect(count($r->getFailedOrders()) === 1 && $r->getFailedOrders()[0]->getOrderId() === 999999, 'the unknown id fails as an int');
        return $r->getWaybillItems()[0]->getProviderKey() . ' ' . $r->getWaybillItems()[0]->getFile() . ', failed ' . $r->getFailedOrders()[0]->getOrderId();
    });
    $call = null;
    check("$label courierCall()->create", function () use ($api, &$call) {
        $day = strtotime('+2 days');
        while (in_array(date('N', $day), ['6', '7'])) $day = strtotime('+1 day', $day);
        $request = (new CourierCallRequest())
            ->setProviderKey('sandbox-express')->setDate(date('Y-m-d', $day))->setTimeStart('10:00')->setTimeEnd('18:00')
            ->setWeight(1200)->setWidth(20)->setHeight(10)->setLength(30)
            ->setCountryCode('RU')->setCity('Москва')->setStreet('Тверская')->setHouse('7')->setPostIndex('101000')
            ->setCompanyName('ООО Ромашка')->setContactName('Иван Петров')->setPhone('+79161234567');
        $r = $api->courierCall()->create($request);
        $call = $r->getId();
        return "id $call, providerNumber {$r->getProviderNumber()}";
    });
    check("$label courierCall()->cancel", function () use ($api, &$call) {
        $r = $api->courierCall()->cancel($call);
        return "id {$r->getId()}";
    });
    check("$label orders()->cancel", function () use ($orders, &$synced) {
        $r = $orders->cancel($synced);
        return "orderId {$r->getOrderId()}";
    });
    // sandbox-express keeps registered orders (cancel them instead); a canceled order is cleared away by delete.
    check("$label orders()->delete", function () use ($orders, &$synced) {
        $r = $orders->delete($synced);
        return "orderId {$r->getOrderId()}";
    });
    check("$label wrong answer is a ResponseException", function () use ($orders) {
        try {
            $orders->getOrderInfo(987654321);
        } catch (ResponseException $e) {
            expect($e->getErrorApishipCode() == '040080', 'code 040080');
            return $e->getErrorApishipCode() . ' ' . $e->getErrorMessage();
        }
        throw new RuntimeException('no exception');
    });
}

$tokenAdapter = new GuzzleTokenAdapter(getenv('API_TOKEN'), false, null, null, 'real-clients');
$tokenAdapter->setCustomUrl($base);
exercise('token', new Apiship($tokenAdapter));

$loginAdapter = new GuzzleAdapter(getenv('API_LOGIN'), getenv('API_PASSWORD'), false, null, null, 'real-clients');
$loginAdapter->setCustomUrl($base);
exercise('login', new Apiship($loginAdapter));

check('login  wrong password is 401 040101', function () use ($base) {
    $adapter = new GuzzleAdapter(getenv('API_LOGIN') . '-nobody', 'wrong-password', false);
    $adapter->setCustomUrl($base);
    try {
        (new Apiship($adapter))->lists()->getProviders();
    } catch (ResponseException $e) {
        expect($e->getErrorApishipCode() == '040101', 'code 040101');
        return $e->getErrorApishipCode() . ' ' . $e->getErrorMessage();
    }
    throw new RuntimeException('no exception');
});

printf("\n%d of %d SDK calls passed\n", $passed, $passed + $failed);
exit($failed ? 1 : 0);
PHP

SDK_DIR="$sdk" BASE_URL="http://127.0.0.1:$port/v1/" API_TOKEN="$token" API_LOGIN="$login" API_PASSWORD="$password" \
  php -d include_path=".:/usr/share/php" "$work/run.php"
