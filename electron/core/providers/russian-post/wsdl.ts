/**
 * The WSDL of Russian Post's two tracking services, as far as ShipDesk uses them; the SOAP library (`soap`) builds the
 * envelopes and reads the answers from these, the fake serves them. Kept as text so the bundled app needs no files.
 */

/** One SOAP operation of a service: its name and the schema elements of its request and answer. */
interface Operation {
  name: string;
  input: string;
  output: string;
}

/**
 * The messages, port type and document/literal binding of a service's operations, which every operation spells the
 * same way: a `<name>Request` / `<name>Response` message pair over its two elements.
 */
function operations(service: { portType: string; binding: string; soap: 'soap' | 'soap12'; types: string }, list: Operation[]): string {
  const { portType, binding, soap, types } = service;
  const messages = list.flatMap((op) => [
    `  <wsdl:message name="${op.name}Request"><wsdl:part name="parameters" element="${types}:${op.input}"/></wsdl:message>`,
    `  <wsdl:message name="${op.name}Response"><wsdl:part name="parameters" element="${types}:${op.output}"/></wsdl:message>`,
  ]);
  const abstract = list.map((op) => `    <wsdl:operation name="${op.name}">
      <wsdl:input message="tns:${op.name}Request"/>
      <wsdl:output message="tns:${op.name}Response"/>
    </wsdl:operation>`);
  const bound = list.map((op) => `    <wsdl:operation name="${op.name}">
      <${soap}:operation soapAction="" style="document"/>
      <wsdl:input><${soap}:body use="literal"/></wsdl:input>
      <wsdl:output><${soap}:body use="literal"/></wsdl:output>
    </wsdl:operation>`);
  return `${messages.join('\n')}
  <wsdl:portType name="${portType}">
${abstract.join('\n')}
  </wsdl:portType>
  <wsdl:binding name="${binding}" type="tns:${portType}">
    <${soap}:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/>
${bound.join('\n')}
  </wsdl:binding>`;
}

export const OPERATION_HISTORY_WSDL = `<?xml version="1.0" encoding="UTF-8"?>
<!--
  Russian Post's single-item tracking service (OperationHistory, SOAP 1.2), as far as ShipDesk uses it: the
  getOperationHistory operation with the request and authorization elements named as the service names them
  (russianpost.org/operationhistory/data; appwilio/russianpost-sdk's SingleAccessClient). Written for ShipDesk from
  those facts; the endpoint is set by the connection.
-->
<wsdl:definitions xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" xmlns:soap12="http://schemas.xmlsoap.org/wsdl/soap12/"
  xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:tns="http://russianpost.org/operationhistory"
  xmlns:data="http://russianpost.org/operationhistory/data" targetNamespace="http://russianpost.org/operationhistory" name="OperationHistory12">
  <wsdl:types>
    <xs:schema targetNamespace="http://russianpost.org/operationhistory/data" elementFormDefault="qualified">
      <xs:complexType name="OperationHistoryRequest">
        <xs:sequence>
          <xs:element name="Barcode" type="xs:string"/>
          <xs:element name="MessageType" type="xs:int"/>
          <xs:element name="Language" type="xs:string" minOccurs="0"/>
        </xs:sequence>
      </xs:complexType>
      <xs:complexType name="AuthorizationHeader">
        <xs:sequence>
          <xs:element name="login" type="xs:string"/>
          <xs:element name="password" type="xs:string"/>
        </xs:sequence>
      </xs:complexType>
      <xs:complexType name="Rtm02Parameter">
        <xs:sequence>
          <xs:element name="Id" type="xs:int" minOccurs="0"/>
          <xs:element name="Name" type="xs:string" minOccurs="0"/>
        </xs:sequence>
      </xs:complexType>
      <xs:complexType name="Address">
        <xs:sequence>
          <xs:element name="Index" type="xs:string" minOccurs="0"/>
          <xs:element name="Description" type="xs:string" minOccurs="0"/>
        </xs:sequence>
      </xs:complexType>
      <xs:complexType name="AddressParameters">
        <xs:sequence>
          <xs:element name="OperationAddress" type="data:Address" minOccurs="0"/>
        </xs:sequence>
      </xs:complexType>
      <xs:complexType name="OperationParameters">
        <xs:sequence>
          <xs:element name="OperType" type="data:Rtm02Parameter" minOccurs="0"/>
          <xs:element name="OperAttr" type="data:Rtm02Parameter" minOccurs="0"/>
          <xs:element name="OperDate" type="xs:string" minOccurs="0"/>
        </xs:sequence>
      </xs:complexType>
      <xs:complexType name="ItemParameters">
        <xs:sequence>
          <xs:element name="Barcode" type="xs:string" minOccurs="0"/>
        </xs:sequence>
      </xs:complexType>
      <xs:complexType name="OperationHistoryRecord">
        <xs:sequence>
          <xs:element name="AddressParameters" type="data:AddressParameters" minOccurs="0"/>
          <xs:element name="ItemParameters" type="data:ItemParameters" minOccurs="0"/>
          <xs:element name="OperationParameters" type="data:OperationParameters" minOccurs="0"/>
        </xs:sequence>
      </xs:complexType>
      <xs:complexType name="OperationHistoryData">
        <xs:sequence>
          <xs:element name="historyRecord" type="data:OperationHistoryRecord" minOccurs="0" maxOccurs="unbounded"/>
        </xs:sequence>
      </xs:complexType>
      <xs:element name="getOperationHistory">
        <xs:complexType>
          <xs:sequence>
            <xs:element name="OperationHistoryRequest" type="data:OperationHistoryRequest"/>
            <xs:element name="AuthorizationHeader" type="data:AuthorizationHeader"/>
          </xs:sequence>
        </xs:complexType>
      </xs:element>
      <xs:element name="getOperationHistoryResponse">
        <xs:complexType>
          <xs:sequence>
            <xs:element name="OperationHistoryData" type="data:OperationHistoryData"/>
          </xs:sequence>
        </xs:complexType>
      </xs:element>
    </xs:schema>
  </wsdl:types>
${operations({ portType: 'OperationHistory12', binding: 'OperationHistory12Binding', soap: 'soap12', types: 'data' }, [
  { name: 'getOperationHistory', input: 'getOperationHistory', output: 'getOperationHistoryResponse' },
])}
  <wsdl:service name="OperationHistory12">
    <wsdl:port name="OperationHistory12Port" binding="tns:OperationHistory12Binding">
      <soap12:address location="https://tracking.russianpost.ru/rtm34"/>
    </wsdl:port>
  </wsdl:service>
</wsdl:definitions>`;

export const BATCH_TRACKING_WSDL = `<?xml version="1.0" encoding="UTF-8"?>
<!--
  Russian Post's batch tracking service ("ticket" service, SOAP 1.1), as far as ShipDesk uses it: getTicket (up to
  3000 barcodes, answered with a ticket) and getResponseByTicket (the operations of each barcode, or error 6 while
  the answer is not ready). Names as the service uses them (appwilio/russianpost-sdk's PacketAccessClient);
  written for ShipDesk from those facts; the endpoint is set by the connection.
-->
<wsdl:definitions xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/"
  xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:tns="http://fclient.russianpost.org" xmlns:d="http://fclient.russianpost.org/postserver"
  targetNamespace="http://fclient.russianpost.org" name="FederalClient">
  <wsdl:types>
    <xs:schema targetNamespace="http://fclient.russianpost.org/postserver" elementFormDefault="unqualified">
      <xs:complexType name="error">
        <xs:attribute name="ErrorTypeID" type="xs:int"/>
        <xs:attribute name="ErrorName" type="xs:string"/>
      </xs:complexType>
      <xs:complexType name="operation">
        <xs:attribute name="OperTypeID" type="xs:int"/>
        <xs:attribute name="OperCtgID" type="xs:int"/>
        <xs:attribute name="OperName" type="xs:string"/>
        <xs:attribute name="DateOper" type="xs:string"/>
        <xs:attribute name="IndexOper" type="xs:string"/>
      </xs:complexType>
      <xs:complexType name="item">
        <xs:sequence>
          <xs:element name="Operation" type="d:operation" minOccurs="0" maxOccurs="unbounded"/>
          <xs:element name="Error" type="d:error" minOccurs="0" maxOccurs="unbounded"/>
        </xs:sequence>
        <xs:attribute name="Barcode" type="xs:string"/>
      </xs:complexType>
      <xs:complexType name="file">
        <xs:sequence>
          <xs:element name="Item" type="d:item" minOccurs="0" maxOccurs="unbounded"/>
        </xs:sequence>
      </xs:complexType>
      <xs:complexType name="ticketRequest">
        <xs:sequence>
          <xs:element name="Item" type="d:item" minOccurs="1" maxOccurs="3000"/>
        </xs:sequence>
      </xs:complexType>
      <xs:element name="ticketRequest">
        <xs:complexType>
          <xs:sequence>
            <xs:element name="request" type="d:ticketRequest"/>
            <xs:element name="login" type="xs:string"/>
            <xs:element name="password" type="xs:string"/>
            <xs:element name="language" type="xs:string" minOccurs="0"/>
          </xs:sequence>
        </xs:complexType>
      </xs:element>
      <xs:element name="ticketResponse">
        <xs:complexType>
          <xs:sequence>
            <xs:element name="value" type="xs:string" minOccurs="0"/>
            <xs:element name="error" type="d:error" minOccurs="0"/>
          </xs:sequence>
        </xs:complexType>
      </xs:element>
      <xs:element name="answerByTicketRequest">
        <xs:complexType>
          <xs:sequence>
            <xs:element name="ticket" type="xs:string"/>
            <xs:element name="login" type="xs:string"/>
            <xs:element name="password" type="xs:string"/>
          </xs:sequence>
        </xs:complexType>
      </xs:element>
      <xs:element name="answerByTicketResponse">
        <xs:complexType>
          <xs:sequence>
            <xs:element name="value" type="d:file" minOccurs="0"/>
            <xs:element name="error" type="d:error" minOccurs="0"/>
          </xs:sequence>
        </xs:complexType>
      </xs:element>
    </xs:schema>
  </wsdl:types>
${operations({ portType: 'FederalClient', binding: 'FederalClientBinding', soap: 'soap', types: 'd' }, [
  { name: 'getTicket', input: 'ticketRequest', output: 'ticketResponse' },
  { name: 'getResponseByTicket', input: 'answerByTicketRequest', output: 'answerByTicketResponse' },
])}
  <wsdl:service name="FederalClient">
    <wsdl:port name="ItemDataServicePort" binding="tns:FederalClientBinding">
      <soap:address location="https://tracking.russianpost.ru/fc"/>
    </wsdl:port>
  </wsdl:service>
</wsdl:definitions>`;
