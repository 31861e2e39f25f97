/**
 * The fixed content of the demo: people, the tag tree, projects, comments, banners, collections
 * and donations. Pure data; `demo.ts` turns it into rows.
 */
import type { MaskColor } from './images.ts';

export const LICENCES = [
  'CERN-OHL-S-2.0',
  'CERN-OHL-W-2.0',
  'CERN-OHL-P-2.0',
  'TAPR-OHL-1.0',
  'Solderpad-2.1',
  'CC-BY-SA-4.0',
  'CC-BY-4.0',
  'MIT',
  'Apache-2.0',
  'GPL-3.0-or-later',
] as const;

export type Licence = (typeof LICENCES)[number];

export interface TagSeed {
  slug: string;
  nameEn: string;
  nameZh: string;
}

export interface TagParentSeed extends TagSeed {
  children: TagSeed[];
}

/** The two-level tag tree (parents in display order, children in display order). */
export const TAG_TREE: TagParentSeed[] = [
  {
    slug: 'microcontrollers',
    nameEn: 'Microcontrollers',
    nameZh: '单片机',
    children: [
      { slug: 'esp32', nameEn: 'ESP32', nameZh: 'ESP32' },
      { slug: 'stm32', nameEn: 'STM32', nameZh: 'STM32' },
      { slug: 'rp2040', nameEn: 'RP2040', nameZh: 'RP2040' },
      { slug: 'avr', nameEn: 'AVR', nameZh: 'AVR' },
      { slug: 'ch32', nameEn: 'CH32 RISC-V', nameZh: 'CH32 RISC-V' },
    ],
  },
  {
    slug: 'power',
    nameEn: 'Power',
    nameZh: '电源',
    children: [
      { slug: 'usb-pd', nameEn: 'USB Power Delivery', nameZh: 'USB PD 快充' },
      { slug: 'buck-converter', nameEn: 'Buck converters', nameZh: '降压转换器' },
      { slug: 'battery-management', nameEn: 'Battery management', nameZh: '电池管理' },
      { slug: 'solar', nameEn: 'Solar', nameZh: '太阳能' },
    ],
  },
  {
    slug: 'rf-wireless',
    nameEn: 'RF & Wireless',
    nameZh: '射频与无线',
    children: [
      { slug: 'lora', nameEn: 'LoRa', nameZh: 'LoRa' },
      { slug: 'ble', nameEn: 'Bluetooth LE', nameZh: '低功耗蓝牙' },
      { slug: 'wifi', nameEn: 'Wi-Fi', nameZh: 'Wi-Fi' },
      { slug: 'zigbee', nameEn: 'Zigbee & Thread', nameZh: 'Zigbee 与 Thread' },
      { slug: 'sdr', nameEn: 'Software-defined radio', nameZh: '软件无线电' },
    ],
  },
  {
    slug: 'sensors',
    nameEn: 'Sensors',
    nameZh: '传感器',
    children: [
      { slug: 'temperature-humidity', nameEn: 'Temperature & humidity', nameZh: '温湿度' },
      { slug: 'imu', nameEn: 'IMU & motion', nameZh: '惯性测量' },
      { slug: 'air-quality', nameEn: 'Air quality', nameZh: '空气质量' },
      { slug: 'current-sensing', nameEn: 'Current sensing', nameZh: '电流检测' },
    ],
  },
  {
    slug: 'audio',
    nameEn: 'Audio',
    nameZh: '音频',
    children: [
      { slug: 'amplifier', nameEn: 'Amplifiers', nameZh: '功放' },
      { slug: 'dac', nameEn: 'DACs', nameZh: '解码器' },
      { slug: 'synthesizer', nameEn: 'Synthesizers', nameZh: '合成器' },
      { slug: 'microphone', nameEn: 'Microphones', nameZh: '麦克风' },
    ],
  },
  {
    slug: 'tools-test',
    nameEn: 'Tools & Test',
    nameZh: '工具与测试',
    children: [
      { slug: 'oscilloscope', nameEn: 'Oscilloscopes', nameZh: '示波器' },
      { slug: 'logic-analyzer', nameEn: 'Logic analyzers', nameZh: '逻辑分析仪' },
      { slug: 'bench-supply', nameEn: 'Bench supplies', nameZh: '可调电源' },
      { slug: 'debug-probe', nameEn: 'Debug probes', nameZh: '调试器' },
      { slug: 'electronic-load', nameEn: 'Electronic loads', nameZh: '电子负载' },
    ],
  },
];

export interface UserSeed {
  url: string;
  nickname: string;
  /** ASCII initials drawn on the avatar. */
  initials: string;
  bio: string;
  location: string;
  website: string;
}

export const DEMO_USERS: UserSeed[] = [
  { url: 'lena-marsh', nickname: 'Lena Marsh', initials: 'LM', bio: 'Analog tinkerer and Eurorack addict. I design small synth modules and the test gear to debug them.', location: 'Berlin, Germany', website: 'https://lena-marsh.example.com' },
  { url: 'ravi-k', nickname: 'Ravi Kumar', initials: 'RK', bio: 'RF engineer by day, LoRa mesh hobbyist by night. Antennas are just wires with opinions.', location: 'Bengaluru, India', website: 'https://ravi-k.example.com' },
  { url: 'sofia-lindqvist', nickname: 'Sofia Lindqvist', initials: 'SL', bio: 'Power electronics, battery packs and anything that gets warm. Always measuring efficiency.', location: 'Gothenburg, Sweden', website: 'https://sofia-lindqvist.example.com' },
  { url: 'jakew', nickname: 'Jake Whitfield', initials: 'JW', bio: 'Keyboards, macro pads and RP2040 everything. KiCad since version 4.', location: 'Portland, OR, USA', website: 'https://jakew.example.com' },
  { url: 'mateo-garcia', nickname: 'Mateo García', initials: 'MG', bio: 'Audio hardware: class-D amps, DACs and headphone amps. Measurements or it did not happen.', location: 'Valencia, Spain', website: 'https://mateo-garcia.example.com' },
  { url: 'priya-nair', nickname: 'Priya Nair', initials: 'PN', bio: 'Environmental sensing and low-power IoT. My nodes run for years on a coin cell.', location: 'Toronto, Canada', website: 'https://priya-nair.example.com' },
  { url: 'tom-okafor', nickname: 'Tom Okafor', initials: 'TO', bio: 'Embedded firmware developer building open test and measurement tools.', location: 'Manchester, UK', website: 'https://tom-okafor.example.com' },
  { url: 'laowang-pcb', nickname: '电路板老王', initials: 'LW', bio: '十年硬件老兵，爱画四层板，偶尔也画两层。欢迎交流 PCB 布局布线。', location: '广东 深圳', website: 'https://laowang-pcb.example.com' },
  { url: 'solder-xiao', nickname: '焊锡小能手', initials: 'SX', bio: '0402 手焊爱好者，热风枪和烙铁都是好朋友。', location: '浙江 杭州', website: '' },
  { url: 'ajie-hw', nickname: '硬件阿杰', initials: 'AJ', bio: '嵌入式硬件工程师，主攻 STM32 和电机控制。', location: '上海', website: 'https://ajie-hw.example.com' },
  { url: 'xiaochen-mcu', nickname: '嵌入式小陈', initials: 'XC', bio: '在校学生，喜欢 ESP32 和 RISC-V 小芯片，正在学习画板子。', location: '四川 成都', website: '' },
  { url: 'rf-laoli', nickname: '射频老李', initials: 'LL', bio: '业余无线电爱好者，呼号保密。玩 LoRa、SDR 和各种天线。', location: '陕西 西安', website: 'https://rf-laoli.example.com' },
  { url: 'mia-power', nickname: '电源工程师Mia', initials: 'MP', bio: '做了八年开关电源，分享一些实用的电源模块设计。', location: '江苏 苏州', website: 'https://mia-power.example.com' },
  { url: 'ahao-audio', nickname: '音频发烧友阿浩', initials: 'AH', bio: '耳机、解码、功放，一个都不能少。', location: '广东 广州', website: '' },
  { url: 'mengmeng-maker', nickname: '创客梦梦', initials: 'MM', bio: '创客空间管理员，喜欢做有趣的小玩意儿和教学套件。', location: '北京', website: 'https://mengmeng-maker.example.com' },
];

export interface ProjectSeed {
  /** ASCII title for the cover artwork. */
  short: string;
  chip: string;
  mask: MaskColor;
  lang: 'en' | 'zh';
  owner: string;
  title: string;
  summary: string;
  tags: string[];
  licence: Licence;
  intro: string;
  features: string[];
  specs?: [string, string][];
  build: string;
  /** Curated position on `/recommend`. */
  recommend?: number;
}

export const DEMO_PROJECTS: ProjectSeed[] = [
  // ---- English ----
  {
    short: 'WX-S3 Weather', chip: 'ESP32-S3', mask: 'green', lang: 'en', owner: 'priya-nair',
    title: 'Solar ESP32-S3 Weather Station',
    summary: 'A solar-powered weather station that logs temperature, humidity, pressure and wind to your own MQTT broker.',
    tags: ['esp32', 'temperature-humidity', 'solar'], licence: 'CERN-OHL-S-2.0', recommend: 1,
    intro: 'This board is the heart of a backyard weather station. An ESP32-S3 wakes up every five minutes, reads a BME280 and an anemometer, publishes the readings over Wi-Fi and goes back to deep sleep. A 2 W solar panel and an 18650 cell keep it running through a northern winter.',
    features: ['Deep-sleep current of 18 µA with the sensors powered down', 'CN3791 MPPT solar charger for a single Li-ion cell', 'Screw terminals for an anemometer, a wind vane and a rain gauge', 'Home Assistant discovery over MQTT', 'Fits a standard 100 × 68 mm junction box'],
    specs: [['Supply', '6 V solar panel, 18650 cell'], ['Sleep current', '18 µA'], ['Board', '2 layers, 90 × 60 mm'], ['Radio', 'Wi-Fi 2.4 GHz, optional external antenna']],
    build: 'All parts are 0603 or larger, so the board is hand-solderable. Flash the firmware with the USB-C port, hold BOOT while plugging in for the first upload, then configure Wi-Fi from the captive portal.',
  },
  {
    short: 'Macro Pad 12', chip: 'RP2040', mask: 'black', lang: 'en', owner: 'jakew',
    title: 'RP2040 12-Key Hot-Swap Macro Pad',
    summary: 'A compact 3×4 macro pad with hot-swap sockets, per-key RGB and a rotary encoder, running QMK or KMK.',
    tags: ['rp2040'], licence: 'MIT',
    intro: 'I wanted a small pad for editing shortcuts that did not need a daughter board. Everything, including the RP2040, the flash and the USB-C connector, sits on one board under the switch plate.',
    features: ['Kailh hot-swap sockets for MX switches', 'SK6812 mini-e per-key RGB', 'EC11 rotary encoder with push button', 'ESD protection on the USB lines', 'Works with QMK, KMK and plain CircuitPython'],
    build: 'Solder the RP2040 first with a hot-air station, then the flash and the crystal. Check the 1.1 V core rail before you add the sockets. The case files are in the repository as STEP and 3MF.',
  },
  {
    short: 'PD Trigger', chip: 'CH224K', mask: 'purple', lang: 'en', owner: 'sofia-lindqvist',
    title: 'USB-C PD Trigger Board 5–20 V',
    summary: 'Get a fixed 9, 12, 15 or 20 V supply from any USB-C PD charger with a tiny board and a DIP switch.',
    tags: ['usb-pd'], licence: 'CERN-OHL-P-2.0',
    intro: 'Most of my bench projects need 12 V and I am tired of carrying wall warts. This 20 × 15 mm board negotiates a fixed voltage with any Power Delivery charger and passes it through a 5 A MOSFET switch only once the negotiation succeeded.',
    features: ['Voltage selection by DIP switch: 9, 12, 15 or 20 V', 'Output enabled only after a successful contract', 'Status LED for power good', 'Castellated edges so it can be soldered onto another board'],
    specs: [['Input', 'USB-C, PD 3.0'], ['Output', '9 / 12 / 15 / 20 V, up to 5 A (with an e-marked cable)'], ['Size', '20 × 15 mm']],
    build: 'Only one side is populated. The CH224K needs just two resistors and a capacitor; the voltage table is printed on the silkscreen.',
  },
  {
    short: 'FOC Driver G4', chip: 'STM32G431', mask: 'black', lang: 'en', owner: 'tom-okafor',
    title: 'STM32G4 Field-Oriented Motor Controller',
    summary: 'A 24 V, 15 A brushless motor controller with field-oriented control, an encoder input and CAN bus.',
    tags: ['stm32', 'current-sensing'], licence: 'CERN-OHL-W-2.0',
    intro: 'This controller drives gimbal and robot joint motors with smooth, quiet field-oriented control. The STM32G431 has the op-amps and comparators on chip, so the current sensing chain is short and cheap.',
    features: ['Three-shunt current sensing with the internal op-amps', 'Magnetic encoder input (SPI or ABI)', 'CAN FD with a termination jumper', 'Runs SimpleFOC or the included firmware', 'Overcurrent trip in hardware'],
    specs: [['Input voltage', '12–24 V'], ['Phase current', '15 A continuous'], ['PWM', '25 kHz center-aligned'], ['Layers', '4 layers, 2 oz outer copper']],
    build: 'Order the board with 2 oz copper. Keep the phase wires short and twist them. Tune the current loop first, then the velocity loop, with the motor unloaded.',
  },
  {
    short: 'Soil Node', chip: 'SX1262', mask: 'blue', lang: 'en', owner: 'ravi-k',
    title: 'LoRa Soil Moisture Node',
    summary: 'A low-power LoRaWAN soil moisture and temperature probe that runs for two years on two AA cells.',
    tags: ['lora', 'sensors'], licence: 'CERN-OHL-S-2.0',
    intro: 'Capacitive moisture sensing is etched directly into the long tip of the board, so there are no exposed electrodes to corrode. The electronics sit at the top, above the soil line, sealed with conformal coating.',
    features: ['Capacitive sensing with the PCB itself as the probe', 'SX1262 LoRa radio with a u.FL connector', 'DS18B20 footprint for soil temperature', 'Two-year battery life at a 15-minute interval'],
    build: 'Coat the sensing tip with two layers of clear lacquer. Register the node on The Things Network with the DevEUI printed by the firmware on the serial console.',
  },
  {
    short: 'Class-D 2x50W', chip: 'TPA3116', mask: 'red', lang: 'en', owner: 'mateo-garcia',
    title: 'TPA3116D2 Stereo Class-D Amplifier',
    summary: 'A clean 2 × 50 W stereo amplifier with proper output filters, a soft-start and a Bluetooth input option.',
    tags: ['amplifier'], licence: 'CERN-OHL-W-2.0',
    intro: 'Many cheap TPA3116 boards skimp on the output filter and the input coupling. This layout follows the datasheet closely, adds a soft-start and mute sequencer against pops, and leaves room for a Bluetooth receiver module.',
    features: ['LC output filter with shielded inductors', 'Soft-start and mute to avoid turn-on pops', 'Optional Bluetooth module header', 'Heatsink mounting holes on a standard pattern'],
    specs: [['Output', '2 × 50 W into 4 Ω at 24 V'], ['THD+N', '0.03 % at 1 W'], ['Supply', '12–26 V DC'], ['Board', '2 layers, 100 × 80 mm']],
    build: 'Use a 24 V, 5 A supply. Mount the heatsink before powering up. The gain is set by two resistors; the default is 26 dB.',
  },
  {
    short: 'Pocket LA 16', chip: 'RP2040', mask: 'blue', lang: 'en', owner: 'tom-okafor',
    title: 'Pocket 16-Channel Logic Analyzer',
    summary: 'A USB logic analyzer with 16 channels at 100 MS/s, level shifting for 1.8–5 V logic and sigrok support.',
    tags: ['logic-analyzer', 'rp2040'], licence: 'GPL-3.0-or-later', recommend: 3,
    intro: 'The RP2040 PIO blocks make a surprisingly capable logic analyzer. This board adds input protection, adjustable thresholds and a proper probe connector, and works with PulseView out of the box.',
    features: ['16 channels at up to 100 MS/s (8 channels at 200 MS/s)', 'Adjustable threshold from 0.6 to 3.3 V', 'Inputs protected to ±30 V', 'sigrok / PulseView compatible'],
    specs: [['Channels', '16'], ['Sample rate', '100 MS/s'], ['Buffer', '200 k samples per channel'], ['Interface', 'USB 1.1 full speed, streaming mode']],
    build: 'The probe header uses 2.54 mm pitch and matches the common Saleae-style grabbers. Flash the UF2 by holding BOOT, then select "RP2040 LA" in PulseView.',
  },
  {
    short: 'C6 Thread Dev', chip: 'ESP32-C6', mask: 'white', lang: 'en', owner: 'priya-nair',
    title: 'ESP32-C6 Thread & Zigbee Dev Board',
    summary: 'A breadboard-friendly development board for the ESP32-C6 with Thread, Zigbee, Wi-Fi 6 and a battery charger.',
    tags: ['esp32', 'zigbee', 'wifi'], licence: 'Apache-2.0',
    intro: 'The ESP32-C6 speaks 802.15.4, which makes it an easy way into Thread and Matter. This board keeps the footprint narrow enough to leave a free row on both sides of a breadboard.',
    features: ['Native USB for flashing and debugging', 'Li-ion charger and a fuel gauge', 'Qwiic / STEMMA QT connector', 'Low quiescent current LDO for battery projects'],
    build: 'Use the module version if you do not want to tune the antenna matching network. The Matter examples from ESP-IDF run without changes.',
  },
  {
    short: 'Buck 24-5', chip: 'TPS54331', mask: 'green', lang: 'en', owner: 'sofia-lindqvist',
    title: 'Synchronous Buck Converter 24 V to 5 V 3 A',
    summary: 'A small, efficient step-down module with a tested layout, good thermal performance and a power-good output.',
    tags: ['buck-converter'], licence: 'CERN-OHL-P-2.0',
    intro: 'A buck converter lives and dies by its layout. This module keeps the hot loop tiny, puts the input capacitors right on the switch node and uses a solid ground plane on the second layer.',
    features: ['92 % efficiency at 2 A', 'Power-good and enable pins on the header', 'Input reverse-polarity protection', 'Pin-compatible with the 7805 footprint'],
    specs: [['Input', '8–28 V'], ['Output', '5 V, 3 A'], ['Efficiency', '92 % at 2 A'], ['Ripple', '< 20 mV p-p']],
    build: 'All passives are 0805. Measure the ripple with a short ground spring on the probe, not the long ground lead.',
  },
  {
    short: 'I2S DAC HAT', chip: 'PCM5102A', mask: 'black', lang: 'en', owner: 'mateo-garcia',
    title: 'PCM5102A I2S DAC for Raspberry Pi',
    summary: 'A low-noise I2S DAC HAT with separate analog regulation and a line output that measures well.',
    tags: ['dac'], licence: 'CERN-OHL-S-2.0',
    intro: 'The PCM5102A is easy to use but sensitive to its supply. This HAT gives the analog section its own ultra-low-noise regulator and keeps the digital return currents away from the output stage.',
    features: ['Dedicated LP5907 analog supply', 'RCA and 3.5 mm outputs', 'Works with the hifiberry-dac overlay', 'EEPROM for automatic detection'],
    specs: [['SNR', '112 dB'], ['THD+N', '-93 dB'], ['Sample rates', '8–384 kHz']],
    build: 'Add `dtoverlay=hifiberry-dac` to config.txt. The EEPROM is optional; leave it unpopulated if you configure the overlay by hand.',
  },
  {
    short: 'BLE Tag', chip: 'NRF52832', mask: 'blue', lang: 'en', owner: 'ravi-k',
    title: 'Coin-Cell BLE Tracker Tag',
    summary: 'A keyring-sized Bluetooth LE beacon with an accelerometer and a buzzer, running for a year on a CR2032.',
    tags: ['ble'], licence: 'MIT',
    intro: 'An open alternative to commercial item trackers. It advertises a rotating identifier, wakes up on motion and can beep when your phone asks it to.',
    features: ['nRF52832 with a chip antenna', 'LIS2DH12 accelerometer for wake-on-motion', 'Piezo buzzer driven by a boost circuit', 'One year on a CR2032 at a 1 s advertising interval'],
    build: 'Program it once through the SWD pads with a debug probe; updates go over the air afterwards.',
  },
  {
    short: 'CO2 Monitor', chip: 'ESP32-C3', mask: 'white', lang: 'en', owner: 'priya-nair',
    title: 'SCD41 CO2 Monitor with E-Ink Display',
    summary: 'A desk CO2, temperature and humidity monitor with a 2.9" e-ink display and weeks of battery life.',
    tags: ['air-quality', 'esp32'], licence: 'CERN-OHL-S-2.0',
    intro: 'Indoor CO2 is a good proxy for how stale the air is. This monitor uses a true photoacoustic NDIR sensor and an e-ink panel that only refreshes when a value changes.',
    features: ['Sensirion SCD41 photoacoustic CO2 sensor', '2.9" e-ink display, readable in sunlight', 'Optional Wi-Fi logging', 'USB-C charging for a 1000 mAh Li-Po'],
    build: 'Keep the sensor away from the charger and the regulator: the layout puts a slot in the board to thermally isolate it.',
  },
  {
    short: 'Lab PSU 30V', chip: 'STM32F072', mask: 'red', lang: 'en', owner: 'tom-okafor',
    title: 'Open Bench Power Supply 0–30 V 5 A',
    summary: 'A linear-post-regulated lab supply with digital control, constant current and a rotary encoder interface.',
    tags: ['bench-supply', 'stm32'], licence: 'CERN-OHL-S-2.0', recommend: 5,
    intro: 'A pre-regulating buck converter keeps the linear stage cool, and the linear stage keeps the output quiet. An STM32 sets voltage and current through a 16-bit DAC and shows readings on a small IPS display.',
    features: ['Constant voltage and constant current modes', 'Tracking pre-regulator for low dissipation', '16-bit setpoints, 1 mV / 1 mA resolution', 'Remote control over USB with SCPI commands'],
    specs: [['Output', '0–30 V, 0–5 A'], ['Ripple', '< 1 mV RMS'], ['Resolution', '1 mV / 1 mA'], ['Interface', 'USB, SCPI']],
    build: 'The power stage needs a heatsink rated for at least 30 W. Calibrate the ADC and DAC with the included script and a 5½ digit multimeter.',
  },
  {
    short: 'AVR ISP', chip: 'ATMEGA32U4', mask: 'yellow', lang: 'en', owner: 'jakew',
    title: 'USB AVR ISP Programmer',
    summary: 'An avrdude-compatible ISP programmer with switchable 3.3 / 5 V target power and UPDI support.',
    tags: ['avr', 'debug-probe'], licence: 'GPL-3.0-or-later',
    intro: 'Classic AVRs still appear in a lot of projects. This programmer speaks both the old 6-pin ISP and the newer single-wire UPDI, and protects itself against targets with their own supply.',
    features: ['6-pin ISP and 3-pin UPDI headers', 'Target power 3.3 V or 5 V, or off', 'Level shifting for 1.8–5.5 V targets', 'Works with avrdude and the Arduino IDE'],
    build: 'Flash the ATmega32U4 once through its DFU bootloader. Select "USBasp" in avrdude for ISP, or "serialupdi" for UPDI.',
  },
  {
    short: 'Eurorack VCO', chip: 'AS3340', mask: 'black', lang: 'en', owner: 'lena-marsh',
    title: 'Eurorack VCO with AS3340',
    summary: 'A 10 HP voltage-controlled oscillator with saw, triangle, pulse and sine outputs and accurate 1 V/oct tracking.',
    tags: ['synthesizer'], licence: 'CERN-OHL-S-2.0',
    intro: 'The AS3340 is a modern clone of the classic CEM3340. Around it sits a temperature-compensated exponential converter, hard and soft sync and a triangle-to-sine shaper.',
    features: ['Saw, triangle, pulse with PWM and sine outputs', 'Tracks 1 V/oct over 8 octaves after calibration', 'Hard and soft sync inputs', 'Linear FM input with attenuator'],
    specs: [['Width', '10 HP'], ['Depth', '32 mm'], ['Current', '+12 V: 45 mA, −12 V: 40 mA']],
    build: 'Calibrate the scale trimmer first at 1 V and 4 V, then the high-frequency trimmer. Let the module warm up for ten minutes before tuning.',
  },
  {
    short: 'USB Power Meter', chip: 'INA228', mask: 'purple', lang: 'en', owner: 'sofia-lindqvist',
    title: 'INA228 USB-C Power Meter',
    summary: 'An inline USB-C meter that logs voltage, current and energy with 20-bit resolution and shows PD messages.',
    tags: ['current-sensing', 'usb-pd'], licence: 'CERN-OHL-W-2.0',
    intro: 'A USB meter that is actually accurate: the INA228 measures with 20 bits and a precision shunt, and an RP2040 sniffs the CC line to decode the Power Delivery negotiation.',
    features: ['20-bit voltage and current measurement', 'Energy and charge accumulation', 'Decodes USB PD messages on the CC line', 'Logs to a PC over a second USB port'],
    build: 'Use a 4-terminal 5 mΩ shunt. Calibrate the offset with no load connected.',
  },
  {
    short: 'IMU 9DOF', chip: 'ICM42688', mask: 'green', lang: 'en', owner: 'jakew',
    title: '9-DOF IMU Breakout with ICM-42688-P',
    summary: 'A low-noise IMU breakout with a magnetometer, clean power and both SPI and I2C, sized for drones and robots.',
    tags: ['imu'], licence: 'CERN-OHL-P-2.0',
    intro: 'The ICM-42688-P is one of the lowest-noise consumer IMUs. This breakout pairs it with a separate magnetometer placed away from the power traces.',
    features: ['ICM-42688-P accelerometer and gyroscope', 'MMC5983MA magnetometer', 'SPI up to 24 MHz or I2C', 'Dedicated low-noise LDO'],
    build: 'Mount the board with soft grommets on anything with motors. Use SPI for the full 32 kHz output data rate.',
  },
  {
    short: 'SDR LNA', chip: 'PGA103', mask: 'blue', lang: 'en', owner: 'ravi-k',
    title: 'Wideband LNA and Filter Bank for RTL-SDR',
    summary: 'A 50 MHz–2 GHz low-noise amplifier with switchable filters and bias-tee power for cheap SDR dongles.',
    tags: ['sdr'], licence: 'TAPR-OHL-1.0',
    intro: 'A good LNA close to the antenna makes a cheap RTL-SDR dongle far more useful. This board is powered over the coax through the bias tee and has filters for the FM broadcast band and the 1090 MHz ADS-B band.',
    features: ['PGA-103+ LNA, 0.5 dB noise figure', 'Switchable FM notch and 1090 MHz SAW filter', 'Powered by bias tee or USB', 'SMA connectors, grounded coplanar waveguide layout'],
    specs: [['Range', '50 MHz – 2 GHz'], ['Gain', '22 dB at 1 GHz'], ['Noise figure', '0.5 dB'], ['Supply', '4.5–5.5 V']],
    build: 'Order the board on 1.6 mm FR-4 with the stack-up from the README so that the 50 Ω traces match.',
  },
  {
    short: '4S BMS', chip: 'BQ76920', mask: 'green', lang: 'en', owner: 'sofia-lindqvist',
    title: '4S Li-ion BMS with Active Balancing',
    summary: 'A battery management board for 4-cell packs with protection, coulomb counting and inductor-based balancing.',
    tags: ['battery-management'], licence: 'CERN-OHL-W-2.0',
    intro: 'Passive balancing wastes energy as heat. This BMS uses a small inductive balancer to move charge between cells, and a BQ76920 for protection and measurement.',
    features: ['Over-voltage, under-voltage, over-current and short-circuit protection', 'Coulomb counter for state of charge', 'Inductive active balancing at up to 1 A', 'CAN and UART interfaces'],
    build: 'Connect the cell taps in order from the lowest cell. Never connect the pack before the BMS is fully assembled.',
  },
  {
    short: 'DAP Probe', chip: 'RP2040', mask: 'purple', lang: 'en', owner: 'tom-okafor',
    title: 'CMSIS-DAP Debug Probe with UART',
    summary: 'A fast, cheap SWD debug probe with a virtual serial port, level shifting and a target power switch.',
    tags: ['debug-probe', 'rp2040'], licence: 'MIT',
    intro: 'Based on the official debugprobe firmware, this board adds proper level shifting, a switchable 3.3 V target supply and the 10-pin Cortex debug connector.',
    features: ['CMSIS-DAP v2 for OpenOCD and pyOCD', 'USB-to-UART bridge on the same cable', 'Level shifting for 1.2–5 V targets', 'Standard 10-pin 1.27 mm connector'],
    build: 'Drag the debugprobe UF2 onto the board in BOOTSEL mode. OpenOCD detects it as "cmsis-dap".',
  },
  {
    short: 'Mic Array', chip: 'ESP32-S3', mask: 'black', lang: 'en', owner: 'lena-marsh',
    title: 'Four-Mic Beamforming Array',
    summary: 'A circular array of four MEMS microphones on an ESP32-S3 for voice commands and sound localisation.',
    tags: ['microphone', 'esp32'], licence: 'Apache-2.0',
    intro: 'Four I2S MEMS microphones sit on a 60 mm circle, read in sync by the ESP32-S3. The firmware estimates the direction of arrival and can beam-form towards the loudest speaker.',
    features: ['Four ICS-43434 microphones', 'Direction-of-arrival estimation on the device', 'Ring of 12 RGB LEDs showing the direction', 'Wake word detection with ESP-SR'],
    build: 'The microphones are bottom-ported: leave the holes in the board free of solder mask and keep the acoustic gasket in the case.',
  },
  {
    short: 'Mini Scope', chip: 'STM32H750', mask: 'red', lang: 'en', owner: 'lena-marsh',
    title: 'Two-Channel Pocket Oscilloscope',
    summary: 'A handheld two-channel oscilloscope with a 3.5" touch screen, 50 MS/s per channel and 10 MHz bandwidth.',
    tags: ['oscilloscope', 'stm32'], licence: 'GPL-3.0-or-later',
    intro: 'Not a replacement for a bench scope, but perfect for audio, PWM and serial debugging away from the desk. Each channel has a proper attenuator and a programmable-gain amplifier.',
    features: ['2 channels, 50 MS/s each, 10 MHz analog bandwidth', 'Switchable 1× / 10× attenuator with trimmer compensation', 'Protocol decoding for UART, I2C and SPI', 'Battery powered with USB-C charging'],
    specs: [['Bandwidth', '10 MHz'], ['Sample rate', '50 MS/s per channel'], ['Input range', '±40 V (10×)'], ['Display', '3.5" IPS touch']],
    build: 'Compensate the attenuators with the built-in square wave output, as you would with a probe.',
  },
  // ---- 中文 ----
  {
    short: 'CH32 Dice', chip: 'CH32V003', mask: 'white', lang: 'zh', owner: 'mengmeng-maker',
    title: '基于 CH32V003 的电子骰子',
    summary: '一颗一毛钱的 RISC-V 单片机加七颗 LED，摇一摇就出点数，适合作为焊接入门套件。',
    tags: ['ch32'], licence: 'CC-BY-SA-4.0', recommend: 2,
    intro: '这是我们创客空间焊接课的教学套件。CH32V003 价格极低，外围只需要几个元件，七颗 LED 排成骰子的点阵，内置振动开关检测摇晃。',
    features: ['CH32V003 RISC-V 单片机，单线调试接口', '振动开关触发，自动休眠', 'CR2032 纽扣电池供电，待机电流小于 1 µA', '全部采用直插或 1206 封装，新手也能焊'],
    build: '先焊电阻和 LED，注意 LED 的正负极方向，最后焊电池座。程序用 WCH-LinkE 通过 SWIO 引脚下载。',
  },
  {
    short: 'Smart Plug C3', chip: 'ESP32-C3', mask: 'black', lang: 'zh', owner: 'xiaochen-mcu',
    title: 'ESP32-C3 智能插座（带电量计量）',
    summary: '支持 Home Assistant 的 10A 智能插座，使用 BL0942 计量芯片，可实时查看功率和用电量。',
    tags: ['esp32', 'current-sensing', 'wifi'], licence: 'GPL-3.0-or-later',
    intro: '市面上的智能插座大多依赖厂商云服务，于是自己做了一个完全本地控制的版本。板子采用阻容降压之外的隔离电源方案，安全性更高。',
    features: ['BL0942 单相计量芯片，精度 1%', '隔离 AC-DC 模块供电', '支持 ESPHome，自动接入 Home Assistant', '过流和过温保护'],
    specs: [['额定电流', '10 A'], ['计量精度', '±1%'], ['通信', 'Wi-Fi 2.4 GHz'], ['尺寸', '50 × 40 mm']],
    build: '涉及市电，请务必注意安全！强电走线已加宽并开槽，焊接完成后请用绝缘外壳封装，调试时使用隔离变压器。',
  },
  {
    short: 'F103 Core', chip: 'STM32F103', mask: 'blue', lang: 'zh', owner: 'ajie-hw',
    title: 'STM32F103 最小系统板（双面贴片版）',
    summary: '经典蓝色小板的改进版，Type-C 接口、更稳的 3.3V 电源和正确的 USB 上拉电阻。',
    tags: ['stm32'], licence: 'CERN-OHL-P-2.0',
    intro: '很多人的第一块 STM32 都是"蓝色药丸"，但它的 USB 上拉电阻是错的。这个版本修正了已知问题，换成 Type-C 接口，并引出了全部 IO。',
    features: ['USB 上拉电阻改为正确的 1.5 kΩ', 'Type-C 接口，带 ESD 保护', '低压差稳压器，最大 500 mA', '兼容原版引脚排列'],
    build: '建议先焊 USB 接口和稳压器，上电确认 3.3V 正常后再焊 MCU。可以用 ST-Link 或串口 ISP 下载程序。',
  },
  {
    short: 'GaN 65W', chip: 'SW3518', mask: 'black', lang: 'zh', owner: 'mia-power',
    title: '65W 氮化镓 USB-PD 快充充电器',
    summary: '一个可以放进口袋的 65W 双口快充，采用氮化镓功率管和平面变压器，附完整的测试数据。',
    tags: ['usb-pd'], licence: 'CERN-OHL-W-2.0', recommend: 4,
    intro: '这是我做过的功率密度最高的一个电源。初级采用 QR 反激拓扑配合 GaN 开关管，次级同步整流，协议芯片支持 PD 3.0 和 PPS。',
    features: ['GaN 功率管，满载效率 93%', '支持 PD 3.0 / PPS / QC 4+', '双口智能功率分配', '通过 EMI 预测试'],
    specs: [['输入', '90–264 V AC'], ['输出', '5/9/12/15/20 V，最大 3.25 A'], ['效率', '93%（230 V 满载）'], ['体积', '52 × 30 × 28 mm']],
    build: '变压器参数和绕制方法见附件。首次上电请使用隔离调压器从低电压慢慢升高，并在输出端接电子负载测试。',
  },
  {
    short: 'LoRa TH Node', chip: 'STM32WL', mask: 'green', lang: 'zh', owner: 'rf-laoli',
    title: 'LoRa 远距离温湿度采集节点',
    summary: '基于 STM32WLE5 的 LoRa 温湿度节点，空旷环境通信距离超过 5 公里，两节 AA 电池可用两年。',
    tags: ['lora', 'temperature-humidity'], licence: 'CERN-OHL-S-2.0',
    intro: '用于大棚和仓库的温湿度监测。STM32WLE5 集成了 LoRa 射频，外围元件很少，配合 SHT40 传感器可以达到 ±0.2°C 的精度。',
    features: ['STM32WLE5 单芯片 LoRa 方案', 'SHT40 高精度温湿度传感器', '支持 LoRaWAN 和点对点模式', '防水外壳，IP65'],
    specs: [['频段', '470–510 MHz'], ['发射功率', '+22 dBm'], ['待机电流', '2 µA'], ['续航', '约 2 年（15 分钟上报）']],
    build: '天线匹配网络的参数因板材而异，建议用矢量网络分析仪调整。如果没有仪器，直接使用推荐值也能正常工作。',
  },
  {
    short: 'ES9018 DAC', chip: 'ES9018K2M', mask: 'black', lang: 'zh', owner: 'ahao-audio',
    title: 'ES9018K2M 解码耳放一体板',
    summary: 'USB 输入的 ES9018K2M 解码器，搭配 OPA1612 运放和 TPA6120 耳放，声音干净、底噪极低。',
    tags: ['dac', 'amplifier'], licence: 'CERN-OHL-S-2.0',
    intro: '作为一个音频发烧友，一直想做一台自己满意的台式解码耳放。数字部分和模拟部分分区布局，各自独立供电，实测底噪低于 3 µV。',
    features: ['ES9018K2M 解码芯片，支持 32bit/384kHz', 'XMOS USB 接口，免驱', 'TPA6120 电流反馈耳放', '模拟部分独立线性电源'],
    specs: [['信噪比', '120 dB'], ['THD+N', '0.0008%'], ['输出功率', '500 mW @ 32 Ω']],
    build: 'XMOS 固件需要单独烧录，方法见附件说明。运放可以替换，但请注意供电电压范围。',
  },
  {
    short: 'RP2040 Game', chip: 'RP2040', mask: 'yellow', lang: 'zh', owner: 'mengmeng-maker',
    title: 'RP2040 掌上游戏机',
    summary: '1.54 寸彩屏、八个按键、锂电池供电，可以运行 MicroPython 编写的小游戏，也能跑 NES 模拟器。',
    tags: ['rp2040'], licence: 'MIT',
    intro: '给孩子们做的编程学习机。用 MicroPython 写个贪吃蛇只要几十行代码，写好的游戏可以直接拖进 U 盘里运行。',
    features: ['1.54 寸 240×240 IPS 屏幕', '八个硅胶按键和一个蜂鸣器', '600 mAh 锂电池，支持 Type-C 充电', '16 MB Flash，可以存很多游戏'],
    build: '外壳为 3D 打印件，文件在附件中。屏幕排线比较脆弱，安装时请小心。',
  },
  {
    short: 'NC PSU 32V', chip: 'STM32G071', mask: 'red', lang: 'zh', owner: 'ajie-hw',
    title: '数控可调电源 0–32V 5A',
    summary: '开关预稳压加线性后级的数控电源，恒压恒流，支持上位机和 Modbus 控制。',
    tags: ['bench-supply', 'stm32'], licence: 'GPL-3.0-or-later',
    intro: '实验室必备的可调电源，自己做成本不到成品的三分之一。前级 Buck 跟随输出电压调整，后级线性稳压保证纹波很小。',
    features: ['恒压 / 恒流 / 过压保护', '16 位 DAC 设定，分辨率 1 mV / 1 mA', '支持 Modbus RTU 和上位机软件', '2.4 寸彩屏显示'],
    specs: [['输出', '0–32 V，0–5 A'], ['纹波', '< 2 mV'], ['接口', 'USB、RS485']],
    build: '功率管需要安装在足够大的散热器上。校准步骤：先校准电压 ADC，再校准电流 ADC，最后校准 DAC。',
  },
  {
    short: 'Solar MPPT', chip: 'CN3791', mask: 'green', lang: 'zh', owner: 'mia-power',
    title: '太阳能锂电池 MPPT 充电板',
    summary: '适用于 6V/9V 太阳能板的单节锂电池充电板，带 MPPT 功能和 5V 升压输出，户外项目好帮手。',
    tags: ['solar', 'battery-management'], licence: 'CERN-OHL-P-2.0',
    intro: '很多户外传感器项目都需要太阳能供电。这块板子集成了 MPPT 充电和 5V 升压，直接给单片机或摄像头供电。',
    features: ['CN3791 MPPT 充电，最大 2A', '5V 2A 同步升压输出', '电池保护：过充、过放、短路', '电量指示灯'],
    build: 'MPPT 电压由分压电阻设定，默认适配 6V 太阳能板。如使用 9V 板，请按说明修改电阻值。',
  },
  {
    short: 'Air Box', chip: 'ESP32', mask: 'white', lang: 'zh', owner: 'xiaochen-mcu',
    title: 'ESP32 空气质量检测仪（PM2.5 / 甲醛 / CO2）',
    summary: '集成 PM2.5、甲醛和二氧化碳传感器的桌面空气质量检测仪，数据可上传到手机 App。',
    tags: ['air-quality', 'esp32'], licence: 'CERN-OHL-S-2.0',
    intro: '新房装修后想知道甲醛到底降了多少，于是做了这个检测仪。三种传感器都是正规厂家的模块，数据比较可信。',
    features: ['PMS7003 激光粉尘传感器', 'Dart WZ-S 电化学甲醛传感器', 'SCD40 二氧化碳传感器', '2.8 寸触摸屏和历史曲线'],
    specs: [['PM2.5 量程', '0–1000 µg/m³'], ['甲醛分辨率', '0.001 mg/m³'], ['CO2 量程', '400–5000 ppm']],
    build: '粉尘传感器的进出风口要对准外壳开孔。甲醛传感器首次上电需要预热 24 小时。',
  },
  {
    short: 'H7 Scope', chip: 'STM32H743', mask: 'blue', lang: 'zh', owner: 'laowang-pcb',
    title: '便携式双通道示波器（STM32H7）',
    summary: '基于 STM32H743 和高速 ADC 的便携示波器，带宽 20MHz，4 寸屏幕，支持 FFT 和协议解码。',
    tags: ['oscilloscope', 'stm32'], licence: 'GPL-3.0-or-later', recommend: 6,
    intro: '四层板设计，模拟前端参考了商业示波器的架构：继电器切换衰减、可编程增益放大器、高速 ADC 通过 FMC 接口读入 STM32H743。',
    features: ['双通道，每通道 100 MSa/s', '模拟带宽 20 MHz', 'FFT、自动测量、协议解码', '4000 mAh 锂电池，续航 5 小时'],
    specs: [['带宽', '20 MHz'], ['采样率', '100 MSa/s'], ['存储深度', '64 kpts'], ['屏幕', '4 寸 480×800']],
    build: '模拟前端对布局非常敏感，请严格按照原设计的叠层和走线制作。补偿电容需要用方波信号调整。',
  },
  {
    short: 'Wireless DAP', chip: 'ESP32-S3', mask: 'purple', lang: 'zh', owner: 'laowang-pcb',
    title: 'ESP32-S3 无线 DAPLink 调试器',
    summary: '通过 Wi-Fi 进行 SWD 调试和串口透传，调试机器人和高压设备时不用再担心接地问题。',
    tags: ['debug-probe', 'wifi', 'esp32'], licence: 'Apache-2.0',
    intro: '调试电机驱动时，电脑和目标板共地经常出问题。这个调试器分成两部分：一端插电脑，一端接目标板，中间通过 Wi-Fi 连接，完全电气隔离。',
    features: ['兼容 CMSIS-DAP，支持 Keil、OpenOCD', '无线串口透传', '目标板电压自适应 1.8–5V', '板载锂电池，可独立工作'],
    build: '两块板子使用相同的硬件，刷入不同的固件即可。首次使用需要通过按键进行配对。',
  },
  {
    short: 'TPS5430 Buck', chip: 'TPS5430', mask: 'green', lang: 'zh', owner: 'mia-power',
    title: 'TPS5430 同步降压模块 3A',
    summary: '宽输入电压的降压模块，输出电压可调，附有详细的布局说明和实测效率曲线。',
    tags: ['buck-converter'], licence: 'CERN-OHL-P-2.0',
    intro: '这是一个适合初学者学习开关电源布局的模块。文档中详细解释了每一个元件的选型理由，以及为什么要这样布局。',
    features: ['输入 5.5–36 V，输出 1.22–30 V 可调', '最大输出电流 3A', '效率最高 95%', '带使能和软启动'],
    specs: [['输入电压', '5.5–36 V'], ['输出电流', '3 A'], ['开关频率', '500 kHz']],
    build: '电感选择饱和电流大于 4A 的型号。输出电压通过反馈电阻设定，计算公式见原理图备注。',
  },
  {
    short: 'Flight Ctrl F4', chip: 'STM32F405', mask: 'black', lang: 'zh', owner: 'ajie-hw',
    title: '四轴飞行器飞控板（STM32F405）',
    summary: '兼容 Betaflight 的 30×30 飞控，集成 ICM-42688 陀螺仪、气压计和 OSD 芯片。',
    tags: ['imu', 'stm32'], licence: 'GPL-3.0-or-later',
    intro: '从零开始设计的穿越机飞控，重点优化了陀螺仪的供电和布局，减少电机噪声对姿态解算的影响。',
    features: ['ICM-42688-P 陀螺仪，独立 LDO 供电', 'BMP280 气压计', 'AT7456E 模拟 OSD', '5 路 UART，支持 ELRS 接收机'],
    specs: [['安装孔距', '30.5 × 30.5 mm'], ['输入电压', '3–6S'], ['重量', '7.8 g']],
    build: '陀螺仪方向在固件中设置为 CW90。焊接电机线时注意不要让焊锡溅到陀螺仪附近。',
  },
  {
    short: 'TPA3255 Amp', chip: 'TPA3255', mask: 'red', lang: 'zh', owner: 'ahao-audio',
    title: 'TPA3255 大功率 D 类功放',
    summary: '2×150W 的 D 类功放板，低失真、带保护，驱动书架箱和落地箱都游刃有余。',
    tags: ['amplifier'], licence: 'CERN-OHL-W-2.0',
    intro: 'TPA3255 是 TI 的旗舰 D 类功放芯片，失真可以做到很低。这块板子参考了官方评估板，改进了散热和输入缓冲级。',
    features: ['2×150W @ 4Ω，或单声道 BTL 600W', 'OPA1656 输入缓冲', '过流、过温、直流保护', '大面积铜箔散热'],
    specs: [['输出功率', '2 × 150 W @ 4 Ω'], ['THD+N', '0.005% @ 1 W'], ['供电', '48 V DC']],
    build: '必须使用 48V 开关电源或线性电源，电流至少 5A。芯片底部需要涂导热硅脂并安装散热器。',
  },
  {
    short: '433 Gateway', chip: 'ESP32', mask: 'blue', lang: 'zh', owner: 'rf-laoli',
    title: '433MHz 无线遥控网关',
    summary: '把家里的 433MHz 遥控开关、门磁和报警器接入 Home Assistant，支持学习和转发。',
    tags: ['rf-wireless', 'esp32'], licence: 'MIT',
    intro: '家里有很多 433MHz 的遥控设备，这个网关可以接收它们的信号并转换成 MQTT 消息，也可以模拟遥控器发送指令。',
    features: ['CC1101 收发芯片，灵敏度 -110 dBm', '支持 EV1527、PT2262 等常见编码', '自动学习遥控器按键', 'OpenMQTTGateway 固件'],
    build: '天线长度为 17 cm 的铜线即可，或者使用 SMA 接口的外置天线。',
  },
  {
    short: 'Hall Probe', chip: 'CC6902', mask: 'yellow', lang: 'zh', owner: 'solder-xiao',
    title: '霍尔电流检测探头',
    summary: '非接触式直流 / 交流电流探头，量程 ±50A，可以直接接示波器观察电流波形。',
    tags: ['current-sensing', 'oscilloscope'], licence: 'CERN-OHL-S-2.0',
    intro: '商用电流探头太贵了，于是用开口磁环和线性霍尔传感器做了一个。带宽能达到 100kHz，调试开关电源足够用了。',
    features: ['开口磁环，无需断开电路', '量程 ±50A，带宽 100 kHz', 'BNC 输出，100 mV/A', '内置锂电池，USB 充电'],
    build: '磁环开口处的气隙决定了灵敏度，需要用已知电流校准。调零电位器在外壳侧面。',
  },
  {
    short: 'LA 8CH FX2', chip: 'CY7C68013A', mask: 'green', lang: 'zh', owner: 'solder-xiao',
    title: '8 通道 24MHz 逻辑分析仪',
    summary: '基于 CY7C68013A 的经典逻辑分析仪，兼容 sigrok 和 PulseView，成本不到 30 元。',
    tags: ['logic-analyzer'], licence: 'GPL-3.0-or-later',
    intro: '调试串口、I2C、SPI 的必备工具。这个版本增加了输入保护和 5V 容忍，接错线也不容易烧。',
    features: ['8 通道，最高 24 MHz 采样', '输入 5V 容忍，带 TVS 保护', '兼容 sigrok / PulseView', 'Type-C 接口'],
    build: '焊接 CY7C68013A 时注意 QFN 封装的散热焊盘。EEPROM 中写入 VID/PID 后即可被 sigrok 识别。',
  },
  {
    short: 'VFD Clock', chip: 'ESP32-C3', mask: 'black', lang: 'zh', owner: 'laowang-pcb',
    title: 'Wi-Fi 荧光管桌面时钟',
    summary: '用 IV-18 荧光管显示时间的桌面时钟，通过 NTP 自动校时，亮度随环境光自动调节。',
    tags: ['wifi', 'esp32'], licence: 'CC-BY-SA-4.0',
    intro: '荧光管那种蓝绿色的光总让人很怀旧。ESP32-C3 负责联网校时，MAX6921 驱动荧光管，灯丝采用交流驱动避免亮度不均。',
    features: ['IV-18 八位荧光管', 'NTP 自动校时', '环境光传感器自动调光', '灯丝交流驱动，亮度均匀'],
    build: '荧光管需要 50V 左右的栅极电压，由板载升压电路提供，调试时注意安全。',
  },
  {
    short: 'ADSR Module', chip: 'TL074', mask: 'black', lang: 'zh', owner: 'mengmeng-maker',
    title: '模块化合成器 ADSR 包络发生器',
    summary: '4HP 的 Eurorack 包络发生器模块，全模拟电路，带 LED 指示和循环模式。',
    tags: ['synthesizer'], licence: 'CERN-OHL-S-2.0',
    intro: '这是我做的第一个 Eurorack 模块。电路很经典，使用运放和晶体管实现，适合想入门模块化合成器 DIY 的朋友。',
    features: ['起音、衰减、延持、释音四个旋钮', '循环模式可作为 LFO 使用', 'LED 指示包络电平', '只需 4HP 面板宽度'],
    build: '面板采用 PCB 制作，文件在附件中。先焊贴片元件，最后安装电位器和插座。',
  },
  {
    short: 'E-Load 150W', chip: 'ATMEGA328P', mask: 'red', lang: 'zh', owner: 'solder-xiao',
    title: '恒流电子负载 150W',
    summary: '基于 ATmega328P 的电子负载，支持恒流、恒阻、恒功率模式，可测试电池容量和电源性能。',
    tags: ['electronic-load', 'avr'], licence: 'GPL-3.0-or-later',
    intro: '测试电源和电池必备的工具。使用两颗 MOSFET 并联分担功率，配合 CPU 散热器和风扇，可以持续吸收 150W。',
    features: ['恒流 / 恒阻 / 恒功率 / 电池测试模式', '最大 20A，150W', '四线测量电压', '温控风扇'],
    specs: [['电压范围', '0–60 V'], ['电流范围', '0–20 A'], ['功率', '150 W（持续）']],
    build: 'MOSFET 必须工作在线性区，请选择 SOA 足够大的型号，推荐 IRFP250N。',
  },
  {
    short: 'BLE Lock', chip: 'NRF52840', mask: 'blue', lang: 'zh', owner: 'xiaochen-mcu',
    title: '低功耗蓝牙智能门锁控制板',
    summary: '可以改装到普通门锁上的蓝牙控制板，手机靠近自动开锁，两节电池用一年。',
    tags: ['ble', 'battery-management'], licence: 'MIT',
    intro: '出租屋不能换锁，于是做了一个可以装在原门锁内侧的控制板，通过小电机转动门锁旋钮。',
    features: ['nRF52840 低功耗蓝牙', '手机靠近自动解锁（可关闭）', '电机堵转检测', '低电量提醒'],
    build: '机械结构需要根据门锁型号调整，3D 打印文件提供了常见的几种尺寸。',
  },
];

export interface CommentSeed {
  body: string;
  /** The project owner's answer, the first reply when the comment gets replies. */
  answer: string;
}

/** Top-level comments with the owner's answers, and generic follow-ups, per language. */
export const COMMENTS: { en: CommentSeed[]; enFollowUps: string[]; zh: CommentSeed[]; zhFollowUps: string[] } = {
  en: [
    { body: 'Really clean layout. How did you decide on the placement of the decoupling caps?', answer: 'Thanks! Mostly the datasheet recommendations, then I checked every return path on the ground plane.' },
    { body: 'Just ordered five boards. Will report back once they arrive!', answer: 'Great, let me know how it goes. Check the BOM notes for the two parts with alternatives.' },
    { body: 'Is there a reason you went with a 2-layer board instead of 4 layers here?', answer: 'Cost, mostly: the 2-layer version is less than half the price and measured fine.' },
    { body: 'Built one last weekend and it worked on the first try. Thanks for sharing!', answer: 'Glad to hear it! Post a photo when you have it in a case.' },
    { body: 'Would it be possible to add a version with through-hole parts for beginners?', answer: 'Some parts only exist in SMD, but I can move the passives to 1206 in the next revision.' },
    { body: 'What was the total BOM cost for a single board?', answer: 'Around 12 USD in parts when you buy for ten boards, a bit more for a single one.' },
    { body: 'Great write-up. The measurements section is especially useful.', answer: 'Thank you! It took longer than the design itself.' },
    { body: 'Could you share the enclosure as a STEP file as well?', answer: 'Done, the STEP is in the attachments now.' },
    { body: 'Which firmware version did you test with?', answer: 'The latest release on the main branch; older versions miss the calibration command.' },
    { body: 'Any plans for a revision with a USB-C connector?', answer: 'Yes, rev B has USB-C and ESD protection; the files go up next week.' },
  ],
  enFollowUps: [
    'Same question here, thanks for answering.',
    'Can confirm, mine behaves the same way.',
    'Thanks, that helps a lot!',
    'I had to adjust two resistor values for my parts, otherwise identical.',
    'Subscribed, looking forward to the next revision.',
  ],
  zh: [
    { body: '布局很漂亮，请问去耦电容是怎么摆放的？', answer: '谢谢！基本按照数据手册推荐的方式，再逐个检查了地平面上的回流路径。' },
    { body: '已经打样了，等板子回来再来反馈！', answer: '好的，注意 BOM 里有两个元件有替代型号，备注里写了。' },
    { body: '请问为什么选择两层板而不是四层板？', answer: '主要是成本考虑，两层板价格不到一半，实测性能也够用。' },
    { body: '周末做了一个，一次点亮，感谢分享！', answer: '成功了就好，欢迎晒图！' },
    { body: '能不能出一个直插元件的版本，方便新手焊接？', answer: '有些芯片只有贴片封装，不过下个版本可以把阻容换成 1206 的。' },
    { body: '单板的 BOM 成本大概多少？', answer: '十片一起买的话，元件大概七八十块钱。' },
    { body: '文档写得很详细，测试数据部分特别有参考价值。', answer: '谢谢支持，测试花的时间比画板子还多。' },
    { body: '外壳文件可以分享一下 STEP 格式吗？', answer: '已经上传到附件里了。' },
    { body: '请问用的是哪个版本的固件？', answer: '用的是主分支最新的版本，旧版本没有校准命令。' },
    { body: '太棒了，收藏了慢慢研究。有计划出第二版吗？', answer: '第二版正在画，会加上 Type-C 和 ESD 保护。' },
  ],
  zhFollowUps: [
    '我也有同样的问题，感谢解答。',
    '同样的情况，我这边也是这样。',
    '明白了，谢谢！',
    '我按照这个改了两个电阻值，其他都一样，效果不错。',
    '期待第二版！',
  ],
};

export interface BannerSeed {
  titleEn: string;
  titleZh: string;
  subtitle: string;
  link: string;
  from: string;
  to: string;
}

export const DEMO_BANNERS: BannerSeed[] = [
  { titleEn: 'Recommended builds', titleZh: '编辑推荐', subtitle: 'Hand-picked open hardware from the community', link: '/recommend', from: '#0f5a2a', to: '#1f8a70' },
  { titleEn: 'Build your own lab', titleZh: '打造你的桌面实验室', subtitle: 'Scopes, supplies and probes you can make', link: '/collection/bench-tools', from: '#4a1d6e', to: '#c2417a' },
  { titleEn: 'Fresh ESP32 builds', titleZh: '最新 ESP32 项目', subtitle: 'Wi-Fi, Bluetooth and Thread projects on ESP32', link: '/newest?tag=esp32', from: '#0c3a82', to: '#17a2b8' },
];

export interface CollectionSeed {
  name: string;
  titleEn: string;
  titleZh: string;
  descriptionEn: string;
  descriptionZh: string;
  coverTitle: string;
  from: string;
  to: string;
  /** Project titles, in order. */
  projects: string[];
}

export const DEMO_COLLECTIONS: CollectionSeed[] = [
  {
    name: 'bench-tools',
    titleEn: 'Build Your Own Lab',
    titleZh: '自制实验室仪器',
    descriptionEn: 'Oscilloscopes, power supplies, electronic loads, logic analyzers and debug probes: open designs for the tools on your bench.',
    descriptionZh: '示波器、可调电源、电子负载、逻辑分析仪和调试器——为你的工作台准备的开源仪器设计。',
    coverTitle: 'Build Your Own Lab',
    from: '#4a1d6e',
    to: '#c2417a',
    projects: [
      'Open Bench Power Supply 0–30 V 5 A',
      '便携式双通道示波器（STM32H7）',
      'Pocket 16-Channel Logic Analyzer',
      '恒流电子负载 150W',
      'CMSIS-DAP Debug Probe with UART',
      '霍尔电流检测探头',
      'Two-Channel Pocket Oscilloscope',
    ],
  },
  {
    name: 'esp32-starter',
    titleEn: 'ESP32 Starter Projects',
    titleZh: 'ESP32 入门项目',
    descriptionEn: 'Connected projects that are a good first step with the ESP32 family: sensors, displays and home automation.',
    descriptionZh: '适合入门 ESP32 系列的联网项目：传感器、显示屏和智能家居。',
    coverTitle: 'ESP32 Starter Projects',
    from: '#0c3a82',
    to: '#17a2b8',
    projects: [
      'Solar ESP32-S3 Weather Station',
      'ESP32-C3 智能插座（带电量计量）',
      'SCD41 CO2 Monitor with E-Ink Display',
      'ESP32 空气质量检测仪（PM2.5 / 甲醛 / CO2）',
      'Wi-Fi 荧光管桌面时钟',
      'ESP32-C6 Thread & Zigbee Dev Board',
    ],
  },
];

export interface DonationSeed {
  donor: string;
  /** A demo user's custom URL when the donor is signed in. */
  user?: string;
  amount: number;
  currency: 'USD' | 'CNY';
  message: string;
  /** A project title the donation supports. */
  project?: string;
}

export const DEMO_DONATIONS: DonationSeed[] = [
  { donor: 'Jake Whitfield', user: 'jakew', amount: 1000, currency: 'USD', message: 'Thanks for keeping this site free and open!' },
  { donor: '电路板老王', user: 'laowang-pcb', amount: 8800, currency: 'CNY', message: '支持开源硬件社区，越办越好！' },
  { donor: 'Anonymous', amount: 500, currency: 'USD', message: 'Coffee for the maintainers.' },
  { donor: '匿名用户', amount: 2000, currency: 'CNY', message: '' },
  { donor: 'Ravi Kumar', user: 'ravi-k', amount: 2500, currency: 'USD', message: 'For the LoRa folks.', project: 'Pocket 16-Channel Logic Analyzer' },
  { donor: '焊锡小能手', user: 'solder-xiao', amount: 5000, currency: 'CNY', message: '示波器项目太强了，请作者喝奶茶。', project: '便携式双通道示波器（STM32H7）' },
  { donor: 'M. Fischer', amount: 2000, currency: 'USD', message: 'The bench supply design saved me a lot of money.', project: 'Open Bench Power Supply 0–30 V 5 A' },
  { donor: '小周', amount: 1000, currency: 'CNY', message: '学生党一点心意。' },
  { donor: 'Sofia Lindqvist', user: 'sofia-lindqvist', amount: 3000, currency: 'USD', message: 'Keep the servers running!' },
  { donor: 'Hannah B.', amount: 1500, currency: 'USD', message: 'Love the Eurorack projects.', project: 'Eurorack VCO with AS3340' },
  { donor: '硬件阿杰', user: 'ajie-hw', amount: 6600, currency: 'CNY', message: '感谢平台，学到很多。' },
  { donor: 'K. Tanaka', amount: 1000, currency: 'USD', message: 'ありがとう — great community.' },
  { donor: '创客梦梦', user: 'mengmeng-maker', amount: 20000, currency: 'CNY', message: '代表创客空间的小朋友们感谢大家！', project: 'RP2040 掌上游戏机' },
  { donor: 'Anonymous', amount: 10000, currency: 'USD', message: 'For the open hardware movement.' },
  { donor: 'Lena Marsh', user: 'lena-marsh', amount: 1200, currency: 'USD', message: 'Thanks to everyone who tested my VCO.' },
  { donor: '射频老李', user: 'rf-laoli', amount: 3000, currency: 'CNY', message: '73！', project: 'Wideband LNA and Filter Bank for RTL-SDR' },
  { donor: 'D. Okoro', amount: 700, currency: 'USD', message: 'Small but heartfelt.' },
  { donor: '音频发烧友阿浩', user: 'ahao-audio', amount: 9900, currency: 'CNY', message: '支持音频板块！', project: 'TPA3116D2 Stereo Class-D Amplifier' },
  { donor: 'Priya Nair', user: 'priya-nair', amount: 2000, currency: 'USD', message: 'For the sensor nerds.' },
  { donor: '张工', amount: 5000, currency: 'CNY', message: '电源模块很实用，已经用在产品里了。', project: 'TPS5430 同步降压模块 3A' },
  { donor: 'Ahmed S.', amount: 2500, currency: 'USD', message: 'Thank you for the PD trigger, it powers my soldering iron now.', project: 'USB-C PD Trigger Board 5–20 V' },
  { donor: '嵌入式小陈', user: 'xiaochen-mcu', amount: 1000, currency: 'CNY', message: '第一次捐款，支持一下～' },
  { donor: 'Tom Okafor', user: 'tom-okafor', amount: 5000, currency: 'USD', message: 'Happy to give back.' },
  { donor: 'Lucía R.', amount: 1000, currency: 'USD', message: 'Gracias por compartir.', project: 'PCM5102A I2S DAC for Raspberry Pi' },
];
